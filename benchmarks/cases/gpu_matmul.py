"""GPU matmul per format: float32, TF32, float16, bfloat16 and float8 (e4m3, per-tensor scales).

CUDA only (``--device cuda``); ``--dry-run`` runs the same code on a CPU stand-in with tiny
sizes, so that a first GPU run can fail only on the GPU itself. The method:

* **Operands are prepared before timing.** Each format's operands are made once (cast to
  float16/bfloat16; for float8 scaled by ``amax / 448`` and cast to ``float8_e4m3fn``), so the
  timed call is the matrix product alone. The float8 scaling and casting is timed as its own
  row (``float8 scaling``): a model that quantizes activations per call pays it too.
* **Alternating rounds.** Every round times every format once, in a rotated order, so that a
  slow patch of a shared GPU hits all of them; the table shows the median over the rounds
  and the spread (largest / smallest).
* **Two timers.** CUDA events (GPU time) and a synchronized ``perf_counter`` loop; their ratio
  (``events / loop``) must stay within ``TIMER_AGREEMENT``, or the run fails.
* **Engagement checks.** A format that did not run as asked fails the run instead of being
  published: float16/bfloat16 outputs in their dtype, float8 operands really ``float8_e4m3fn``,
  and TF32 error well above float32's (TF32 keeps 10 mantissa bits; a TF32 row with float32's
  error means TF32 never engaged). TF32 is switched with the ``fp32_precision`` API.
* **Against the data sheet.** With a known GPU (benchmarks/gpu_peaks.toml) each row also shows
  its throughput as a percentage of the data-sheet dense peak for that format.

Errors are relative L2 against the same product in float64.
"""

from __future__ import annotations

import functools
import re
import statistics
import time
from contextlib import contextmanager
from typing import Callable, Iterator

import torch

from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig, relative_l2
from benchmarks.peaks import percent_of_peak
from benchmarks.report import CaseResult, Column
from reference_impl.errors import CudaUnavailableError, VariantNotEngagedError

__all__ = [
    "E4M3_MAX",
    "FORMATS",
    "TIMER_AGREEMENT",
    "check_engaged",
    "cpu_float8_missing_op",
    "cpu_float8_skip_reason",
    "cuda_event_ms",
    "float8_matmul",
    "float8_scaled_matmul",
    "loop_ms",
    "prepare",
    "quantize_float8",
    "run",
]

#: The largest finite float8_e4m3fn value: a per-tensor scale maps each tensor's amax onto it.
E4M3_MAX = float(torch.finfo(torch.float8_e4m3fn).max)
#: The formats, in the order of the table.
FORMATS = ("float32", "tf32", "float16", "bfloat16", "float8_e4m3fn")
#: CUDA events and the synchronized loop must agree within this factor (events / loop).
TIMER_AGREEMENT = (0.5, 2.0)
#: TF32 engaged means an error at least this many times float32's (10 vs 23 mantissa bits: ~1000x).
TF32_ERROR_FACTOR = 8.0


def quantize_float8(t: torch.Tensor, column_major: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """``t`` scaled by ``amax / 448`` and cast to ``float8_e4m3fn``, with its (float32) scale.

    Args:
        t: A float tensor.
        column_major: Return the data column-major (the second operand of a scaled matmul).

    Returns:
        ``(data, scale)``: ``data * scale`` approximates ``t``.

    Examples:
        >>> q, s = quantize_float8(torch.tensor([[1.0, -448.0]]) * 2)
        >>> q.dtype, s.item(), (q.float() * s).tolist()
        (torch.float8_e4m3fn, 2.0, [[2.0, -896.0]])
    """
    scale = (t.abs().amax().float() / E4M3_MAX).clamp(min=1e-12)
    if column_major:
        return (t.t() / scale).to(torch.float8_e4m3fn).contiguous().t(), scale
    return (t / scale).to(torch.float8_e4m3fn), scale


def float8_matmul(a8: torch.Tensor, scale_a: torch.Tensor, b8: torch.Tensor, scale_b: torch.Tensor,
                  out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
    """The product of two prepared float8 operands (this is what is timed for float8).

    Uses the public ``torch.nn.functional.scaled_mm`` where torch has it (2.11 and 2.13 do), else the
    private ``torch._scaled_mm``. On torch 2.11 ``scaled_mm`` runs on a GPU only (see
    `cpu_float8_skip_reason`); on 2.13 it runs on a CPU too.

    Raises:
        VariantNotEngagedError: An operand is not ``float8_e4m3fn`` (the product would not be float8).
    """
    if a8.dtype != torch.float8_e4m3fn or b8.dtype != torch.float8_e4m3fn:
        raise VariantNotEngagedError(
            f"float8_matmul got {a8.dtype} and {b8.dtype}: quantize the operands with quantize_float8 "
            "before timing, so that the timed call is the float8 product alone"
        )
    scaled_mm = getattr(torch.nn.functional, "scaled_mm", None)
    if scaled_mm is not None:
        tensorwise = torch.nn.functional.ScalingType.TensorWise
        return scaled_mm(a8, b8, scale_a, tensorwise, scale_b, tensorwise, output_dtype=out_dtype)
    return torch._scaled_mm(a8, b8, scale_a=scale_a, scale_b=scale_b, out_dtype=out_dtype)


def float8_scaled_matmul(a: torch.Tensor, b: torch.Tensor, out_dtype: torch.dtype = torch.bfloat16) -> torch.Tensor:
    """``a @ b`` in float8 e4m3 with one scale per tensor: quantize both operands, then multiply.

    Args:
        a: ``(m, k)`` float tensor.
        b: ``(k, n)`` float tensor.
        out_dtype: The output dtype.

    Returns:
        The ``(m, n)`` product in ``out_dtype``.

    Examples:
        >>> import pytest
        >>> if cpu_float8_skip_reason():  # torch 2.11: no CPU kernel
        ...     pytest.skip(cpu_float8_skip_reason())
        >>> g = torch.Generator().manual_seed(0)
        >>> a, b = torch.randn(64, 128, generator=g), torch.randn(128, 32, generator=g)
        >>> out = float8_scaled_matmul(a, b)
        >>> out.dtype, relative_l2(out, a.double() @ b.double()) < 0.1
        (torch.bfloat16, True)
    """
    a8, scale_a = quantize_float8(a)
    b8, scale_b = quantize_float8(b, column_major=True)
    return float8_matmul(a8, scale_a, b8, scale_b, out_dtype)


@functools.cache
def cpu_float8_missing_op() -> str | None:
    """The operator `float8_matmul` needs and this torch has no CPU kernel for, or ``None`` (probed once).

    torch 2.11's ``torch.nn.functional.scaled_mm`` calls ``aten::_scaled_mm_v2``, which has a CUDA
    kernel and no CPU kernel there; torch 2.13 has both. Only the CPU stand-in (``--dry-run``) and the
    tests meet this: a GPU runs the float8 rows on either version. The probe is a 16 x 16 float8 product.

    Returns:
        ``"aten::_scaled_mm_v2"`` (as the dispatcher names it) where the CPU kernel is missing, else ``None``.

    Raises:
        NotImplementedError: The probe failed for another reason than a missing CPU kernel.
    """
    one = torch.ones((), dtype=torch.float32)
    a8 = torch.ones(16, 16).to(torch.float8_e4m3fn)
    try:
        float8_matmul(a8, one, a8.t().contiguous().t(), one)
    except NotImplementedError as err:
        missing = re.search(r"'(aten::\w+)' with arguments from the 'CPU' backend", str(err))
        if missing is None:
            raise
        return missing.group(1)
    return None


def cpu_float8_skip_reason() -> str | None:
    """Why float8 cannot run on this torch's CPU (the skip reason of the tests), or ``None`` where it can.

    Examples:
        >>> reason = cpu_float8_skip_reason()
        >>> reason is None or "has no CPU kernel for scaled_mm" in reason
        True
    """
    op = cpu_float8_missing_op()
    if op is None:
        return None
    return f"torch {torch.__version__} has no CPU kernel for scaled_mm ({op}); torch 2.13 has one"


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
def _fp32_precision(precision: str) -> Iterator[None]:
    """TF32 on ("tf32") or off ("ieee") for CUDA matmuls, with the fp32_precision API."""
    matmul = torch.backends.cuda.matmul
    previous = matmul.fp32_precision
    matmul.fp32_precision = precision
    try:
        yield
    finally:
        matmul.fp32_precision = previous


def prepare(a32: torch.Tensor, b32: torch.Tensor, formats=FORMATS) -> dict[str, Callable[[], torch.Tensor]]:
    """For each format, a call that computes ``a @ b`` from operands prepared beforehand.

    The casts (and for float8 the scaling) happen here, once; the returned calls time the
    product alone. ``"float8 scaling"`` is the cost the float8 row leaves out: quantizing both
    operands.

    Args:
        a32: ``(n, n)`` float32 operand.
        b32: ``(n, n)`` float32 operand.
        formats: Which formats to prepare.

    Returns:
        Format name -> call.
    """
    calls: dict[str, Callable[[], torch.Tensor]] = {}
    if "float32" in formats:
        def fp32() -> torch.Tensor:
            with _fp32_precision("ieee"):
                return a32 @ b32
        calls["float32"] = fp32
    if "tf32" in formats:
        def tf32() -> torch.Tensor:
            with _fp32_precision("tf32"):
                return a32 @ b32
        calls["tf32"] = tf32
    if "float16" in formats:
        a16, b16 = a32.half(), b32.half()
        calls["float16"] = lambda: a16 @ b16
    if "bfloat16" in formats:
        abf, bbf = a32.bfloat16(), b32.bfloat16()
        calls["bfloat16"] = lambda: abf @ bbf
    if "float8_e4m3fn" in formats:
        a8, scale_a = quantize_float8(a32)
        b8, scale_b = quantize_float8(b32, column_major=True)
        calls["float8_e4m3fn"] = lambda: float8_matmul(a8, scale_a, b8, scale_b)
        calls["float8 scaling"] = lambda: (quantize_float8(a32), quantize_float8(b32, column_major=True))
    return calls


def check_engaged(name: str, out: object, error: float, float32_error: float, stand_in: bool) -> None:
    """Raise unless ``name`` really ran in its format.

    Args:
        name: The format.
        out: What its call returned.
        error: Its relative L2 error against float64.
        float32_error: float32's error on the same operands.
        stand_in: A CPU stand-in run (``--dry-run``), where TF32 cannot engage.

    Raises:
        VariantNotEngagedError: The output dtype is wrong, or TF32 gave float32's accuracy on a GPU.

    Examples:
        >>> check_engaged("bfloat16", torch.ones(1, dtype=torch.bfloat16), 1e-3, 1e-7, False)
        >>> check_engaged("float16", torch.ones(1), 1e-3, 1e-7, False)
        Traceback (most recent call last):
        ...
        reference_impl.errors.VariantNotEngagedError: float16 returned torch.float32, not torch.float16: the format did not engage
    """
    expected = {"float32": torch.float32, "tf32": torch.float32, "float16": torch.float16,
                "bfloat16": torch.bfloat16, "float8_e4m3fn": torch.bfloat16}.get(name)
    if expected is not None and isinstance(out, torch.Tensor) and out.dtype != expected:
        raise VariantNotEngagedError(f"{name} returned {out.dtype}, not {expected}: the format did not engage")
    if name == "tf32" and not stand_in and error < TF32_ERROR_FACTOR * float32_error:
        raise VariantNotEngagedError(
            f"tf32's error {error:.2e} is not above {TF32_ERROR_FACTOR:g}x float32's {float32_error:.2e}: "
            "TF32 did not engage (check torch.backends.cuda.matmul.fp32_precision)"
        )


def check_timers(what: str, event_ms: float, loop_ms: float) -> float:
    """Raise unless the CUDA-event time and the synchronized loop's time agree.

    Args:
        what: What was timed (for the message).
        event_ms: Median time from CUDA events.
        loop_ms: Median time from a host loop that synchronizes.

    Returns:
        Their ratio, event / loop.

    Raises:
        VariantNotEngagedError: The ratio is outside ``TIMER_AGREEMENT``: the GPU was shared or
            throttling, and the figure must not be published.

    Examples:
        >>> round(check_timers("bfloat16", 1.0, 1.05), 2)
        0.95
        >>> check_timers("bfloat16", 1.0, 3.0)
        Traceback (most recent call last):
        ...
        reference_impl.errors.VariantNotEngagedError: bfloat16: CUDA events and the synchronized loop disagree (0.33x); the GPU is shared or throttling: re-run on a quiet GPU
    """
    agreement = event_ms / loop_ms if loop_ms > 0 else float("nan")
    if not (TIMER_AGREEMENT[0] <= agreement <= TIMER_AGREEMENT[1]):
        raise VariantNotEngagedError(
            f"{what}: CUDA events and the synchronized loop disagree ({agreement:.2f}x); "
            "the GPU is shared or throttling: re-run on a quiet GPU"
        )
    return agreement


def _spread(values: list[float]) -> float:
    return max(values) / min(values) if min(values) > 0 else float("inf")


def run(cfg: BenchConfig) -> CaseResult:
    """Time every format at each size in alternating rounds with two timers; report TFLOP/s, error, % of peak.

    Args:
        cfg: The benchmark settings (``device`` must be ``"cuda"``; ``stand_in`` runs on the CPU).

    Returns:
        The ``gpu_matmul`` case.

    Raises:
        CudaUnavailableError: ``cfg.device`` is not ``"cuda"``.
        VariantNotEngagedError: A format did not run as asked, or the two timers disagree.
    """
    if cfg.device != "cuda":
        raise CudaUnavailableError("the gpu_matmul case measures a GPU; run it with --device cuda")
    device = cfg.target_device
    result = CaseResult(
        "gpu_matmul",
        "GPU matmul per dtype and size",
        [
            Column("n", "col.size"),
            Column("dtype", "col.dtype"),
            Column("tflops", "col.tflops", "sig3"),
            Column("pct_peak", "col.pct_peak", "text"),
            Column("events_ms", "col.events_ms", "sig3"),
            Column("loop_ms", "col.loop_ms", "sig3"),
            Column("agreement", "col.timers_agree", "times"),
            Column("spread", "col.spread", "text"),
            Column("error", "col.error", "percent"),
        ],
    )
    if cfg.stand_in:
        capability, gpu_name = (9, 0), None
    else:
        capability, gpu_name = torch.cuda.get_device_capability(), torch.cuda.get_device_name(0)
    float8 = tuple(capability) >= (8, 9)
    # torch 2.11 has no CPU kernel for scaled_mm: the stand-in leaves the float8 rows out and says why
    no_cpu_kernel = cpu_float8_missing_op() if cfg.stand_in and float8 else None
    formats = FORMATS if float8 and no_cpu_kernel is None else FORMATS[:-1]
    sizes = (64, 128) if cfg.stand_in else ((1024, 4096) if cfg.quick else (1024, 4096, 8192))
    iters = 2 if cfg.stand_in else (5 if cfg.quick else 20)
    rounds = 2 if cfg.stand_in else max(3, cfg.rounds)
    g = torch.Generator(device=device).manual_seed(0)
    for n in sizes:
        a = torch.randn(n, n, generator=g, device=device)
        b = torch.randn(n, n, generator=g, device=device)
        reference = a.double() @ b.double()
        calls = prepare(a, b, formats)
        for fn in calls.values():
            for _ in range(cfg.warmup):
                fn()
        events: dict[str, list[float]] = {name: [] for name in calls}
        loops: dict[str, list[float]] = {name: [] for name in calls}
        names = list(calls)
        for r in range(rounds):
            order = names[r % len(names):] + names[: r % len(names)]
            for name in order:
                fn = calls[name]
                events[name].append(loop_ms(fn, iters, "cpu") if cfg.stand_in else cuda_event_ms(fn, iters))
                loops[name].append(loop_ms(fn, iters, device))
        errors = {name: relative_l2(calls[name](), reference) for name in names if name != "float8 scaling"}
        for name in names:
            ev, lp = statistics.median(events[name]), statistics.median(loops[name])
            agreement = ev / lp if lp > 0 else float("nan")
            if not cfg.stand_in:
                check_timers(f"{name} at n={n}", ev, lp)
            if name != "float8 scaling":
                check_engaged(name, calls[name](), errors[name], errors["float32"], cfg.stand_in)
            tflops = 2 * n**3 / (ev * 1e-3) / 1e12 if name != "float8 scaling" else None
            pct = percent_of_peak(gpu_name, name, tflops) if tflops is not None else None
            result.rows.append(
                {
                    "n": n,
                    "dtype": name,
                    "tflops": tflops,
                    "pct_peak": f"{pct:.0f} %" if pct is not None else "",
                    "events_ms": ev,
                    "loop_ms": lp,
                    "agreement": agreement,
                    "spread": f"{_spread(events[name]):.2f}",
                    "error": errors.get(name),
                }
            )
        del a, b, reference, calls
        if not cfg.stand_in:
            torch.cuda.empty_cache()
    result.notes += [Msg("note.gpu_matmul_timing", iters=iters, warmup=cfg.warmup), Msg("note.tf32")]
    if no_cpu_kernel is not None:
        result.notes.append(Msg("note.float8_no_cpu_kernel", torch=torch.__version__, op=no_cpu_kernel))
    elif float8:
        result.notes.append(Msg("note.float8_scaled"))
    else:
        result.notes.append(Msg("note.float8_unsupported", capability=f"{capability[0]}.{capability[1]}"))
    if cfg.stand_in:
        result.notes.append(Msg("note.stand_in"))
    return result
