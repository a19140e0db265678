"""int4 weights for MSLK's kernel: ``Int4WeightOnlyConfig()`` with its default packing.

The support matrix leaves this column "not checked" from 8.0 to 10.0 (footnote ``[^mslk]``):
torchao packs the weights for MSLK's ``bf16i4bf16_rowwise`` kernel, MSLK is built for some CUDA
architectures, and which of them its int4 kernel runs on was never checked. Without the ``mslk``
package torchao raises ``ImportError: Requires mslk >= 1.0.0`` before the GPU is asked anything:
the probe then says ``undecided`` (install the MSLK build for this torch and CUDA, and run it
again). ``native``: the product ran as ``mslk::bf16i4bf16_rowwise``.

Dry run (CPU): MSLK has no CPU build, so its three calls are substituted by a plain
quantization with the same shapes (int4 values per group of 128 with a scale and a zero point,
two values per byte) and a dequantize-then-matmul product, shown to the profiler under the
kernel's name.
"""

from __future__ import annotations

import importlib.util

import torch

from benchmarks.probes import base
from benchmarks.probes.base import Probe, ProbeResult

__all__ = ["PROBE", "run"]

PROBE = Probe(
    cell="int4.int4weightonlyconfig",
    footnote="mslk",
    source="https://github.com/pytorch/ao/blob/v0.18.0/torchao/quantization/quantize_/workflows/int4/int4_tensor.py#L225",
    question="Does Int4WeightOnlyConfig() (MSLK's int4 kernel) run on this GPU, with right results?",
    stand_in="MSLK's quantize, pack and bf16i4bf16_rowwise replaced by plain CPU code with the same shapes",
)
WRONG_LIMIT = 0.3


def _quantize_zp(w: torch.Tensor, group_size: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Stand-in of MSLK's ``int4_row_quantize_zp``: values in [-8, 7], scale and zero per group, shape ``(K / group, N)``."""
    n, k = w.shape
    groups = w.float().reshape(n, k // group_size, group_size)
    low, high = groups.amin(-1, keepdim=True), groups.amax(-1, keepdim=True)
    scale = ((high - low) / 15).clamp(min=1e-8)
    q = (torch.round((groups - low) / scale) - 8).clamp(-8, 7).to(torch.int8).reshape(n, k)
    zero = low + 8 * scale
    return q, scale.squeeze(-1).t().contiguous(), zero.squeeze(-1).t().contiguous()


def _pack(q: torch.Tensor) -> torch.Tensor:
    """Stand-in of MSLK's ``pack_int4``: two int4 values per byte, ``(N, K / 2)``."""
    return ((q[:, ::2] & 15) | (q[:, 1::2] << 4)).to(torch.int8)


def _unpack(packed: torch.Tensor) -> torch.Tensor:
    low = (packed << 4) >> 4  # sign-extend the low nibble
    high = packed >> 4
    return torch.stack([low, high], dim=-1).reshape(packed.shape[0], -1)


def _matmul(x: torch.Tensor, packed: torch.Tensor, scale: torch.Tensor, zero: torch.Tensor) -> torch.Tensor:
    """Stand-in of ``mslk::bf16i4bf16_rowwise``: dequantize, then a bfloat16 matmul."""
    q = _unpack(packed).float()
    n, k = q.shape
    group_size = k // scale.shape[0]
    w = q.reshape(n, -1, group_size) * scale.t().unsqueeze(-1) + zero.t().unsqueeze(-1)
    return x @ w.reshape(n, k).to(x.dtype).t()


def _stand_ins() -> list[tuple[object, str, object]]:
    from torchao.quantization.quantize_.workflows.int4 import int4_tensor

    return [
        (int4_tensor, "int4_row_quantize_zp", _quantize_zp),
        (int4_tensor, "pack_int4", _pack),
        (torch.ops.mslk, "bf16i4bf16_rowwise", base.stand_in_op("mslk::bf16i4bf16_rowwise", _matmul)),
    ]


def _mslk_version() -> str | None:
    if importlib.util.find_spec("mslk") is None:
        return None
    try:
        import mslk

        return str(getattr(mslk, "__version__", "unknown version"))
    except Exception as err:  # noqa: BLE001 - a broken install is reported, not raised
        return f"present but does not import ({type(err).__name__})"


def run(device: str) -> ProbeResult:
    """Quantize a Linear with ``Int4WeightOnlyConfig()`` and run it on ``device`` (``"cpu"``: the dry run)."""
    from torchao.quantization import Int4WeightOnlyConfig

    mslk = _mslk_version()
    case = base.linear_case(device, 512, 256)
    a = base.run_config(case, "Int4WeightOnlyConfig()", Int4WeightOnlyConfig, device, _stand_ins)
    outcome, line = base.verdict(a, case.reference, WRONG_LIMIT)
    native, lines = base.product(a, "mslk::bf16i4bf16_rowwise", device)
    lines = [f"mslk: {mslk or 'not installed'}", line, *lines]
    if a.error is not None and device == "cuda" and mslk is None:
        outcome = "undecided"
        lines.append("mslk is not installed, so torchao refused before the GPU was asked: install the MSLK build "
                     "for this torch and CUDA and run the probe again")
    return PROBE.result(device, outcome, lines, error=a.error, native=native, kernels=a.kernels)
