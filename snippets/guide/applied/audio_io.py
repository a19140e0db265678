"""Write and read audio with soundfile; the waveform becomes a torch tensor."""

import numpy as np
import soundfile as sf
import torch

sample_rate = 16_000
t = torch.arange(sample_rate) / sample_rate  # one second
tone = 0.5 * torch.sin(2 * torch.pi * 440.0 * t)  # A4, 440 Hz

sf.write("tone.wav", tone.numpy(), sample_rate, subtype="PCM_16")  # 16-bit integer WAV
info = sf.info("tone.wav")
print(info.samplerate, info.channels, info.frames, info.subtype)

data, sr = sf.read("tone.wav", dtype="float32")  # frames (x channels) as numpy float32 in [-1, 1]
waveform = torch.from_numpy(data)
print(sr, waveform.shape, waveform.dtype)
# 16-bit storage rounds each sample to a multiple of 1/32768
print("max rounding error <= 1/32768:", (waveform - tone).abs().max().item() <= 1 / 32768)

stereo = torch.stack([tone, 0.5 * tone], dim=1)  # soundfile's layout: (frames, channels)
sf.write("stereo.flac", stereo.numpy(), sample_rate)
data, _ = sf.read("stereo.flac", dtype="float32", always_2d=True)
channels_first = torch.from_numpy(np.ascontiguousarray(data.T))  # torchaudio's layout: (channels, frames)
print(tuple(channels_first.shape))
