"""Spectrogram and log-mel features with torch.stft and a mel filterbank written out."""

import torch


def hz_to_mel(f):
    return 2595.0 * torch.log10(1.0 + f / 700.0)  # the HTK formula


def mel_to_hz(m):
    return 700.0 * (10.0 ** (m / 2595.0) - 1.0)


def mel_filterbank(n_mels, n_fft, sample_rate, f_min=0.0, f_max=None):
    """Triangular filters, shape (n_mels, n_fft // 2 + 1)."""
    f_max = f_max or sample_rate / 2
    fft_freqs = torch.linspace(0, sample_rate / 2, n_fft // 2 + 1)
    mel_points = torch.linspace(hz_to_mel(torch.tensor(f_min)), hz_to_mel(torch.tensor(f_max)), n_mels + 2)
    hz_points = mel_to_hz(mel_points)
    lower, center, upper = hz_points[:-2, None], hz_points[1:-1, None], hz_points[2:, None]
    rising = (fft_freqs - lower) / (center - lower)
    falling = (upper - fft_freqs) / (upper - center)
    return torch.clamp(torch.minimum(rising, falling), min=0.0)


def log_mel(waveform, sample_rate, n_fft=512, hop=160, n_mels=40):
    window = torch.hann_window(n_fft)
    spec = torch.stft(waveform, n_fft, hop_length=hop, window=window, return_complex=True)
    power = spec.abs() ** 2  # (..., freq, frames)
    mel = mel_filterbank(n_mels, n_fft, sample_rate) @ power
    return torch.log(mel + 1e-6)


if __name__ == "__main__":
    sample_rate = 16_000
    t = torch.arange(sample_rate) / sample_rate
    tone = 0.5 * torch.sin(2 * torch.pi * 1000.0 * t)

    spec = torch.stft(tone, 512, hop_length=160, window=torch.hann_window(512), return_complex=True)
    print("stft:", tuple(spec.shape), spec.dtype)  # (n_fft // 2 + 1 bins, frames)
    peak_bin = spec.abs().mean(dim=1).argmax().item()
    print("peak bin", peak_bin, "=", peak_bin * sample_rate / 512, "Hz")

    fb = mel_filterbank(40, 512, sample_rate)
    print("filterbank:", tuple(fb.shape))
    features = log_mel(tone, sample_rate)
    print("log-mel:", tuple(features.shape))
    centres = mel_to_hz(torch.linspace(0, hz_to_mel(torch.tensor(8000.0)), 42))[1:-1]
    print("loudest mel band centre:", round(centres[features.mean(dim=1).argmax()].item()), "Hz")
    batch = torch.stack([tone, tone.flip(0)])
    print("batched log-mel:", tuple(log_mel(batch, sample_rate).shape))
