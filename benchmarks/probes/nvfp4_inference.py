"""NVFP4 inference: ``NVFP4DynamicActivationNVFP4WeightConfig``.

The support matrix leaves NVFP4 inference "not checked" on compute capability 12.0 (footnote
``[^mx120]``): torchao 0.18 asserts ``is_sm_at_least_100()``, which lets 12.0 through, and nothing
says whether PyTorch's NVFP4 product then runs there. The probe quantizes a bfloat16
``Linear(256, 256)`` (``use_triton_kernel=False``: the activations are quantized by torchao's
PyTorch code, so MSLK is not needed), runs it and compares with float64. ``native``: the product ran
as ``_scaled_mm``.

Dry run (CPU): two GPU-only calls are substituted: the capability check answers yes, and the
product (``_addmm_nvfp4_dispatch``, a ``torch._scaled_mm`` on NVFP4 data) dequantizes both operands
and multiplies in float32.
"""

from __future__ import annotations

import torch

from benchmarks.probes import base
from benchmarks.probes.base import Probe, ProbeResult

__all__ = ["PROBE", "run"]

PROBE = Probe(
    cell="microscaling.nvfp4-inference",
    footnote="mx120",
    source="https://github.com/pytorch/ao/blob/v0.18.0/torchao/prototype/mx_formats/inference_workflow.py#L301",
    question="Does torchao's NVFP4 inference config run on this GPU, with right results?",
    stand_in="the sm100 check answers yes; the NVFP4 product dequantizes and multiplies in float32",
)
#: NVFP4 (e2m1, an e4m3 scale per 16 values, one float32 scale): about 14 % on this layer.
WRONG_LIMIT = 0.3


def _dequantized_product(a, b, aten_op, bias=None) -> torch.Tensor:
    """What the NVFP4 product computes, in float32 from the dequantized operands (the dry run's)."""
    out = (a.dequantize(torch.float32) @ b.dequantize(torch.float32)).to(a.orig_dtype)
    return out if bias is None else out + bias


def _stand_ins() -> list[tuple[object, str, object]]:
    from torchao.prototype.mx_formats import inference_workflow, nvfp4_tensor

    return [
        (inference_workflow, "is_sm_at_least_100", lambda: True),
        (nvfp4_tensor, "_addmm_nvfp4_dispatch", base.stand_in_op("aten::_scaled_mm", _dequantized_product)),
    ]


def run(device: str) -> ProbeResult:
    """Quantize a Linear to NVFP4 and run it on ``device`` (``"cpu"``: the dry run)."""
    from torchao.prototype.mx_formats.inference_workflow import (
        NVFP4DynamicActivationNVFP4WeightConfig,
    )

    case = base.linear_case(device, 256, 256)
    a = base.run_config(case, "NVFP4DynamicActivationNVFP4WeightConfig(use_triton_kernel=False)",
                        lambda: NVFP4DynamicActivationNVFP4WeightConfig(use_triton_kernel=False), device, _stand_ins)
    outcome, line = base.verdict(a, case.reference, WRONG_LIMIT)
    native, lines = base.product(a, "_scaled_mm", device)
    return PROBE.result(device, outcome, [line, *lines], error=a.error, native=native, kernels=a.kernels)
