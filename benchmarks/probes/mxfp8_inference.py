"""MXFP8 inference: ``MXDynamicActivationMXWeightConfig`` with its default kernels.

The support matrix leaves MXFP8 inference "not checked" on compute capability 12.0 (footnote
``[^mx120]``): torchao 0.18's check lets 12.0 through (``is_sm_at_least_100()`` compares with
(10, 0)), and nothing says whether the block-scaled product then runs there. The probe quantizes a
bfloat16 ``Linear(256, 256)`` with the config's default ``KernelPreference.AUTO``, runs it and
compares with float64. ``native``: the product ran as ``_scaled_mm`` (the MX kernel), not emulated.

Dry run (CPU): the one GPU-only call is substituted: torchao's MX product (``_addmm_mx_dispatch``,
a ``torch._scaled_mm`` on e4m3fn data and E8M0 scales) takes its emulated branch (dequantize, then
a matmul in high precision); the config, its casts and everything else are the same code.
"""

from __future__ import annotations

from benchmarks.probes import base
from benchmarks.probes.base import Probe, ProbeResult

__all__ = ["PROBE", "run"]

PROBE = Probe(
    cell="microscaling.mxfp8-inference",
    footnote="mx120",
    source="https://github.com/pytorch/ao/blob/v0.18.0/torchao/utils.py#L1157-L1162",
    question="Does torchao's MXFP8 inference config run on this GPU with its own kernels, with right results?",
    stand_in="the MX product takes torchao's emulated branch in place of torch._scaled_mm",
)
#: MXFP8 (e4m3fn, one power-of-two scale per 32 values): about 3.5 % on this layer.
WRONG_LIMIT = 0.15


def _stand_ins() -> list[tuple[object, str, object]]:
    """The dry run's substitution: torchao's MX product, emulated, under the name of the kernel it stands in for."""
    from torchao.prototype.mx_formats import mx_tensor
    from torchao.quantization.quantize_.common import KernelPreference

    return [
        (mx_tensor, "_get_gemm_choice", lambda a, b: KernelPreference.EMULATED),
        base.mx_product_stand_in(),
    ]


def run(device: str) -> ProbeResult:
    """Quantize a Linear to MXFP8 and run it on ``device`` (``"cpu"``: the dry run)."""
    from torchao.prototype.mx_formats.inference_workflow import (
        MXDynamicActivationMXWeightConfig,
    )
    from torchao.quantization.quantize_.common import KernelPreference

    case = base.linear_case(device, 256, 256)
    a = base.run_config(case, "MXDynamicActivationMXWeightConfig(kernel_preference=KernelPreference.AUTO)",
                        lambda: MXDynamicActivationMXWeightConfig(kernel_preference=KernelPreference.AUTO), device,
                        _stand_ins)
    outcome, line = base.verdict(a, case.reference, WRONG_LIMIT)
    native, lines = base.product(a, "_scaled_mm", device)
    return PROBE.result(device, outcome, [line, *lines], error=a.error, native=native, kernels=a.kernels)
