"""torchaudio where it is installed: loading (through TorchCodec) and MelSpectrogram against our own code."""

import soundfile as sf
import torch
import torchaudio

from audio_features import log_mel

sample_rate = 16_000
t = torch.arange(sample_rate) / sample_rate
sf.write("tone.wav", (0.5 * torch.sin(2 * torch.pi * 440.0 * t)).numpy(), sample_rate)

waveform, sr = torchaudio.load("tone.wav")  # since torchaudio 2.9 this calls TorchCodec (needs FFmpeg)
print(sr, tuple(waveform.shape))  # (channels, frames)

mel = torchaudio.transforms.MelSpectrogram(
    sample_rate=sr, n_fft=512, hop_length=160, n_mels=40, mel_scale="htk", norm=None, power=2.0
)(waveform[0])
torch.testing.assert_close(torch.log(mel + 1e-6), log_mel(waveform[0], sr), rtol=1e-4, atol=1e-3)
print("torchaudio MelSpectrogram matches log_mel: True")
