"""A so-called "VocoderModel" is a frame-wise feature-to-feature LSTM; here it learns to denoise log-mel frames."""

import torch
from torch import nn

from audio_features import log_mel

torch.manual_seed(0)


class MelFrameMapper(nn.Module):
    """LSTM over frames, then a linear layer back to the same number of features."""

    def __init__(self, n_features, hidden):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
        self.out = nn.Linear(hidden, n_features)

    def forward(self, frames):  # (batch, frames, n_features) -> same shape
        encoded, _ = self.lstm(frames)
        return self.out(encoded)


sr = 16_000
t = torch.arange(sr // 2) / sr
freqs = 300 + 1500 * torch.rand(8, 1)
clean_wave = 0.5 * torch.sin(2 * torch.pi * freqs * t)
noisy_wave = clean_wave + 0.1 * torch.randn_like(clean_wave)
clean = log_mel(clean_wave, sr).transpose(1, 2)  # (batch, frames, 40)
noisy = log_mel(noisy_wave, sr).transpose(1, 2)

model = MelFrameMapper(40, 32)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for step in range(40):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(noisy), clean)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())

print("input:", tuple(noisy.shape), "output:", tuple(model(noisy).shape))
print("loss fell below half of its start:", losses[-1] < losses[0] / 2)
print("waveform samples a vocoder would have to produce:", clean_wave.shape[-1])
