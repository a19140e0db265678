"""A small classifier of synthetic sounds (steady tone, rising chirp, noise) on log-mel features."""

import torch
from torch import nn

from audio_features import log_mel

torch.manual_seed(0)
SR, N = 16_000, 8_000  # half a second per clip
CLASSES = ["tone", "chirp", "noise"]
t = torch.arange(N) / SR


def make_clip(kind, gen):
    f0 = 200 + 1800 * torch.rand((), generator=gen)
    if kind == "tone":
        clip = torch.sin(2 * torch.pi * f0 * t)
    elif kind == "chirp":  # frequency rises linearly from f0 to 2 x f0
        clip = torch.sin(2 * torch.pi * (f0 * t + f0 * t**2 / (2 * t[-1])))
    else:
        clip = torch.randn(N, generator=gen)
    amplitude = 0.1 + 0.8 * torch.rand((), generator=gen)
    return amplitude * clip / clip.abs().max() + 0.05 * torch.randn(N, generator=gen)


def dataset(n_per_class, seed):
    gen = torch.Generator().manual_seed(seed)
    clips, labels = [], []
    for label, kind in enumerate(CLASSES):
        for _ in range(n_per_class):
            clips.append(make_clip(kind, gen))
            labels.append(label)
    features = log_mel(torch.stack(clips), SR)  # (clips, 40 mel bands, frames)
    return features, torch.tensor(labels)


x_train, y_train = dataset(60, seed=1)
x_test, y_test = dataset(20, seed=2)  # other random clips: held out
mean, std = x_train.mean(), x_train.std()  # normalise with training statistics only
x_train, x_test = (x_train - mean) / std, (x_test - mean) / std

model = nn.Sequential(
    nn.Conv1d(40, 32, kernel_size=5, padding=2),  # mel bands are the channels, frames the length
    nn.ReLU(),
    nn.Conv1d(32, 32, kernel_size=5, padding=2),
    nn.ReLU(),
    nn.AdaptiveMaxPool1d(1),  # any clip length -> one vector: the strongest response over time
    nn.Flatten(),
    nn.Linear(32, len(CLASSES)),
)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(15):
    model.train()
    order = torch.randperm(len(x_train))
    for start in range(0, len(order), 30):
        idx = order[start : start + 30]
        optimizer.zero_grad()
        loss_fn(model(x_train[idx]), y_train[idx]).backward()
        optimizer.step()

model.eval()
with torch.no_grad():
    accuracy = (model(x_test).argmax(1) == y_test).float().mean().item()
print("features:", tuple(x_train.shape))
print(f"held-out accuracy >= 0.9: {accuracy >= 0.9}")
assert accuracy >= 0.9, accuracy
