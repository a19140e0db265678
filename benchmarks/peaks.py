"""A measured throughput beside the data sheet's: the GPU peaks table (benchmarks/gpu_peaks.toml).

Readers run ``python -m benchmarks --device cuda`` on their own GPU; a number alone does not
say whether the run was healthy. Each throughput is also shown as a percentage of the data-sheet
dense peak for that format, from a table in which every GPU names its source.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FORMAT_KEYS", "GpuPeaks", "find_gpu", "load_peaks", "percent_of_peak"]

PEAKS_FILE = Path(__file__).with_name("gpu_peaks.toml")
#: The benchmark's format names -> the table's keys.
FORMAT_KEYS = {"float32": "fp32", "tf32": "tf32", "float16": "fp16", "bfloat16": "bf16",
               "float8_e4m3fn": "fp8", "int8": "int8"}


@dataclass(frozen=True)
class GpuPeaks:
    """One GPU's dense data-sheet peaks (TFLOP/s; int8 TOPS) and where they come from."""

    name: str
    match: str
    peaks: dict[str, float]
    source: str


@functools.cache
def load_peaks(path: Path = PEAKS_FILE) -> tuple[GpuPeaks, ...]:
    """The table, in file order (specific names before general ones).

    Raises:
        ValueError: A GPU without a source, or an unknown format key.
    """
    with open(path, "rb") as f:
        data = tomllib.load(f)
    gpus = []
    for entry in data["gpu"]:
        entry = dict(entry)
        name, match, source = entry.pop("name"), entry.pop("match"), entry.pop("source", "")
        if not source:
            raise ValueError(f"{path.name}: {name} has no source; every peak must name its data sheet")
        unknown = set(entry) - set(FORMAT_KEYS.values())
        if unknown:
            raise ValueError(f"{path.name}: {name} has unknown format keys {sorted(unknown)}")
        gpus.append(GpuPeaks(name, match, {k: float(v) for k, v in entry.items()}, source))
    return tuple(gpus)


def find_gpu(device_name: str | None) -> GpuPeaks | None:
    """The table's entry for ``torch.cuda.get_device_name()``, or None for a GPU it lacks.

    Examples:
        >>> find_gpu("NVIDIA H100 80GB HBM3").name, find_gpu("NVIDIA H100 PCIe").name
        ('H100 SXM', 'H100 PCIe')
        >>> find_gpu("NVIDIA A100-SXM4-80GB").name, find_gpu("NVIDIA A10").name, find_gpu("NVIDIA L4").name
        ('A100', 'A10', 'L4')
        >>> find_gpu("some other GPU") is None
        True
    """
    if not device_name:
        return None
    for gpu in load_peaks():
        if re.search(gpu.match, device_name):
            return gpu
    return None


def percent_of_peak(device_name: str | None, fmt: str, tflops: float | None) -> float | None:
    """``tflops`` as a percentage of the data-sheet dense peak for ``fmt`` on this GPU.

    Args:
        device_name: ``torch.cuda.get_device_name()`` (None on a CPU stand-in).
        fmt: The benchmark's format name (``"bfloat16"``, ``"float8_e4m3fn"``, ...).
        tflops: The measured throughput.

    Returns:
        The percentage, or None when the GPU, the format or the figure is unknown.

    Examples:
        >>> round(percent_of_peak("NVIDIA H100 80GB HBM3", "bfloat16", 782.0), 1)
        79.0
        >>> percent_of_peak("NVIDIA H100 80GB HBM3", "float8_e4m3fn", 1423.0) > 70
        True
        >>> percent_of_peak("Tesla T4", "bfloat16", 10.0) is None  # T4 has no bfloat16 tensor cores
        True
    """
    gpu = find_gpu(device_name)
    key = FORMAT_KEYS.get(fmt)
    if gpu is None or key is None or tflops is None or key not in gpu.peaks:
        return None
    return 100.0 * tflops / gpu.peaks[key]
