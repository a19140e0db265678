"""float8 products with one scale per row: ``torch.nn.functional.scaled_mm`` with ``ScalingType.RowWise``.

The support matrix leaves the rowwise column of ``scaled_mm`` "not checked" on compute capability
12.0 (footnote ``[^rowwise120]``): from 10.0 on PyTorch sends a rowwise product to its own CUTLASS
kernel, whose dispatch names 8.9, 9.x and 10.x only. The probe quantizes a bfloat16 input and a
weight to e4m3fn with one scale per row (per output column for the weight), multiplies them with
``F.scaled_mm`` and compares with float64. ``native``: the product ran as ``_scaled_mm``.

Dry run (CPU): nothing is substituted; PyTorch's CPU ``scaled_mm`` takes rowwise scales too.
"""

from __future__ import annotations

import torch

from benchmarks.probes import base
from benchmarks.probes.base import Probe, ProbeResult

__all__ = ["PROBE", "run"]

PROBE = Probe(
    cell="scaled-mm.rowwise",
    footnote="rowwise120",
    source="https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/cuda/RowwiseScaledMM.cu",
    question="Does torch's scaled_mm multiply e4m3fn matrices with one scale per row on this GPU, with right results?",
    stand_in="nothing: PyTorch's CPU scaled_mm takes rowwise scales",
)
#: e4m3fn keeps 3 mantissa bits: about 3 % on this product; a scale or layout bug gives errors near 100 %.
WRONG_LIMIT = 0.15

_E4M3 = torch.float8_e4m3fn


def _rowwise(t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """e4m3fn data and the inverse scales (float32, one per row) of ``t``."""
    amax = t.abs().amax(dim=1, keepdim=True).float().clamp(min=1e-12)
    scale = torch.finfo(_E4M3).max / amax
    return (t.float() * scale).clamp(-448, 448).to(_E4M3), (1 / scale).float()


def run(device: str) -> ProbeResult:
    """Multiply with rowwise scales on ``device`` (``"cpu"``: the dry run)."""
    import torch.nn.functional as F

    case = base.linear_case(device, 256, 256)

    def product() -> torch.Tensor:
        x8, x_inv = _rowwise(case.x)
        w8, w_inv = _rowwise(case.model.weight)
        return F.scaled_mm(x8, w8.t(), x_inv, F.ScalingType.RowWise, w_inv.t(), F.ScalingType.RowWise,
                           output_dtype=torch.bfloat16)

    a = base.attempt("F.scaled_mm, e4m3fn, rowwise scales", product, device)
    outcome, line = base.verdict(a, case.reference, WRONG_LIMIT)
    native, lines = base.product(a, "_scaled_mm", device)
    return PROBE.result(device, outcome, [line, *lines], error=a.error, native=native, kernels=a.kernels)
