"""GPU matmul per dtype: float32, TF32, float16, bfloat16 and float8 (e4m3 with per-tensor scales).

CUDA only (``--device cuda``). Each dtype is timed at a few square sizes with CUDA events and
cross-checked against a plain ``perf_counter`` loop that synchronizes before and after: the two
must agree (the ``events / loop`` column), or the figure is not trusted. float8 runs through
``torch._scaled_mm`` with one scale per tensor (``amax / 448``, the largest e4m3 value) and a
bfloat16 output; it needs compute capability 8.9 or newer (Ada, Hopper). Errors are relative
L2 against the same product in float64.

The numerical parts (`float8_scaled_matmul`, `loop_ms`) run on any device and are unit-tested
on CPU; only `cuda_event_ms` and `run` need a GPU.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Callable, Iterator

import torch

from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig, relative_l2
from benchmarks.report import CaseResult, Column
from reference_impl.errors import CudaUnavailableError

__all__ = ["E4M3_MAX", "cuda_event_ms", "float8_scaled_matmul", "loop_ms", "run"]

#: The largest finite float8_e4m3fn value: a per-tensor scale maps each tensor's amax onto it.
E4M3_MAX = float(torch.finfo(torch.float8_e4m3fn).max)


def float8_scaled_matmul(a: torch.Tensor, b: torch.Tensor, out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
    """``a @ b`` in float8 e4m3 with one scale per tensor, the way float8 inference and training do it.

    Each operand is divided by its scale ``amax / 448`` and cast to ``float8_e4m3fn``;
    ``torch._scaled_mm`` multiplies the float8 values, accumulates in float32 and multiplies the
    scales back in.

    Args:
        a: ``(m, k)`` float tensor.
        b: ``(k, n)`` float tensor (made column-major for ``_scaled_mm``).
        out_dtype: The output dtype.

    Returns:
        The ``(m, n)`` product in ``out_dtype``.

    Examples:
        >>> g = torch.Generator().manual_seed(0)
        >>> a, b = torch.randn(64, 128, generator=g), torch.randn(128, 32, generator=g)
        >>> out = float8_scaled_matmul(a, b)
        >>> out.dtype, relative_l2(out, a.double() @ b.double()) < 0.1
        (torch.bfloat16, True)
    """
    scale_a = (a.abs().amax().float() / E4M3_MAX).clamp(min=1e-12)
    scale_b = (b.abs().amax().float() / E4M3_MAX).clamp(min=1e-12)
    a8 = (a / scale_a).to(torch.float8_e4m3fn)
    b8 = (b.t() / scale_b).to(torch.float8_e4m3fn).contiguous().t()  # column-major, as _scaled_mm wants
    return torch._scaled_mm(a8, b8, scale_a=scale_a, scale_b=scale_b, out_dtype=out_dtype)


def loop_ms(fn: Callable[[], object], iters: int, device: str) -> float:
    """Milliseconds per call of ``fn`` from a plain loop, synchronized before and after.

    Examples:
        >>> loop_ms(lambda: None, 10, "cpu") >= 0
        True
    """
    if device == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        fn()
    if device == "cuda":
        torch.cuda.synchronize()
    return (time.perf_counter() - start) * 1e3 / iters


def cuda_event_ms(fn: Callable[[], object], iters: int) -> float:
    """Milliseconds per call of ``fn`` between two CUDA events (GPU time, no host overhead).

    Raises:
        CudaUnavailableError: No GPU.
    """
    if not torch.cuda.is_available():
        raise CudaUnavailableError("cuda_event_ms needs a GPU; time with loop_ms on a CPU")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / iters


@contextmanager
def _matmul_precision(precision: str) -> Iterator[None]:
    previous = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(precision)
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(previous)


def _variants(a32: torch.Tensor, b32: torch.Tensor, float8: bool) -> dict[str, Callable[[], torch.Tensor]]:
    def fp32() -> torch.Tensor:
        with _matmul_precision("highest"):
            return a32 @ b32

    def tf32() -> torch.Tensor:
        with _matmul_precision("high"):
            return a32 @ b32

    a16, b16 = a32.half(), b32.half()
    abf, bbf = a32.bfloat16(), b32.bfloat16()
    variants = {"float32": fp32, "tf32": tf32, "float16": lambda: a16 @ b16, "bfloat16": lambda: abf @ bbf}
    if float8:
        variants["float8_e4m3fn"] = lambda: float8_scaled_matmul(a32, b32)
    return variants


def run(cfg: BenchConfig) -> CaseResult:
    """Time every dtype at each size with CUDA events and a plain loop; report TFLOP/s and error.

    Args:
        cfg: The benchmark settings (``device`` must be ``"cuda"``).

    Returns:
        The ``gpu_matmul`` case.

    Raises:
        CudaUnavailableError: ``cfg.device`` is not ``"cuda"``.
    """
    if cfg.device != "cuda":
        raise CudaUnavailableError("the gpu_matmul case measures a GPU; run it with --device cuda")
    result = CaseResult(
        "gpu_matmul",
        "GPU matmul per dtype and size",
        [
            Column("n", "col.size"),
            Column("dtype", "col.dtype"),
            Column("tflops", "col.tflops", "sig3"),
            Column("events_ms", "col.events_ms", "sig3"),
            Column("loop_ms", "col.loop_ms", "sig3"),
            Column("agreement", "col.timers_agree", "times"),
            Column("error", "col.error", "percent"),
        ],
    )
    major, minor = torch.cuda.get_device_capability()
    float8 = (major, minor) >= (8, 9)
    sizes = (1024, 4096) if cfg.quick else (1024, 4096, 8192)
    iters = 5 if cfg.quick else 20
    g = torch.Generator(device="cuda").manual_seed(0)
    for n in sizes:
        a = torch.randn(n, n, generator=g, device="cuda")
        b = torch.randn(n, n, generator=g, device="cuda")
        reference = a.double() @ b.double()
        for name, fn in _variants(a, b, float8).items():
            for _ in range(cfg.warmup):
                fn()
            events = cuda_event_ms(fn, iters)
            loop = loop_ms(fn, iters, "cuda")
            result.rows.append(
                {
                    "n": n,
                    "dtype": name,
                    "tflops": 2 * n**3 / (events * 1e-3) / 1e12,
                    "events_ms": events,
                    "loop_ms": loop,
                    "agreement": events / loop,
                    "error": relative_l2(fn(), reference),
                }
            )
        del a, b, reference
        torch.cuda.empty_cache()
    result.notes += [Msg("note.gpu_matmul_timing", iters=iters, warmup=cfg.warmup), Msg("note.tf32")]
    if float8:
        result.notes.append(Msg("note.float8_scaled"))
    else:
        result.notes.append(Msg("note.float8_unsupported", capability=f"{major}.{minor}"))
    return result
