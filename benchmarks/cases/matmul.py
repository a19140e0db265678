"""Square matmul in float32, float16 and bfloat16 (and TF32 on CUDA), with TFLOP/s.

On CPUs the answer depends on the instruction set: AMX-BF16 makes bfloat16 fast,
while an AVX2-only CPU converts 16-bit values in software and is far slower than
float32. On a GPU, TF32/16-bit run on tensor cores.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch

from benchmarks.cases.gpu_matmul import check_engaged
from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig, relative_l2
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns
from reference_impl._checks import dtype_name

__all__ = ["run"]


@contextmanager
def _fp32_precision(precision: str):
    """float32 matmuls at full precision ("ieee") or with TF32 ("tf32", CUDA only), on both the
    CUDA and the oneDNN (CPU) backend, with the ``fp32_precision`` API (not the legacy
    ``set_float32_matmul_precision``, which raises once the new API has been used)."""
    backends = [torch.backends.cuda.matmul, torch.backends.mkldnn.matmul]
    previous = [b.fp32_precision for b in backends]
    backends[0].fp32_precision = precision
    backends[1].fp32_precision = "ieee"  # oneDNN's reduced float32 modes are not TF32: keep the CPU exact
    try:
        yield
    finally:
        for backend, value in zip(backends, previous):
            backend.fp32_precision = value


def run(cfg: BenchConfig) -> CaseResult:
    """Time ``a @ b`` for each dtype against float32 (full precision).

    Args:
        cfg: The benchmark settings.

    Returns:
        The ``matmul`` case.
    """
    if cfg.device == "cuda":
        n = 4096 if cfg.quick else 8192
    else:
        # Quick: 256 is enough for what the tests check (every dtype measured, bfloat16's error),
        # and 64x less work where float16/bfloat16 are converted in software (AVX2 only).
        n = 256 if cfg.quick else 1024
    g = torch.Generator().manual_seed(0)
    a64 = torch.randn(n, n, generator=g, dtype=torch.float64).to(cfg.device)
    b64 = torch.randn(n, n, generator=g, dtype=torch.float64).to(cfg.device)
    ref = a64 @ b64
    flop = 2 * n**3
    result = CaseResult(
        "matmul",
        f"{n}x{n} @ {n}x{n} matmul per dtype",
        [
            Column("dtype", "col.dtype"),
            Column("tflops", "col.tflops", "sig3"),
            *timed_columns("col.float32_ms", "col.dtype_ms"),
            Column("error", "col.error", "percent"),
        ],
    )
    a32, b32 = a64.float(), b64.float()
    # Full-precision float32 for the baseline (TF32 off on CUDA), TF32 only inside its own variant.
    with _fp32_precision("ieee"):

        def fp32():
            return a32 @ b32

        variants = {}
        for dtype in (torch.float16, torch.bfloat16):
            a, b = a32.to(dtype), b32.to(dtype)
            variants[dtype_name(dtype)] = (lambda a=a, b=b: a @ b)
        if cfg.device == "cuda":

            def tf32():
                with _fp32_precision("tf32"):
                    return a32 @ b32

            variants = {"tf32": tf32, **variants}
        outputs = {name: fn() for name, fn in variants.items()}
        errors = {name: relative_l2(out, ref) for name, out in outputs.items()}
        errors["float32"] = relative_l2(fp32(), ref)
        # Each variant really ran in its format: the output dtype, and TF32's error well above float32's.
        for name, out in outputs.items():
            check_engaged(name, out, errors[name], errors["float32"], stand_in=cfg.device != "cuda")
        comparisons = cfg.compare(("float32", fp32), variants)
    first = next(iter(comparisons.values()))
    result.rows.append(
        {
            "dtype": "float32",
            "tflops": flop / first.baseline_s / 1e12,
            "baseline_ms": first.baseline_s * 1e3,
            "variant_ms": first.baseline_s * 1e3,
            "verdict": Msg("verdict.baseline"),
            "spread": None,
            "error": errors["float32"],
        }
    )
    for name, c in comparisons.items():
        result.add_comparison(name, c)
        result.rows.append(
            {"dtype": name, "tflops": flop / c.variant_s / 1e12, **comparison_cells(c), "error": errors[name]}
        )
    result.notes += [Msg("note.matmul_rounds", rounds=cfg.rounds), Msg("note.tflops", n=n)]
    if cfg.device == "cuda":
        result.notes.append(Msg("note.tf32"))
    return result
