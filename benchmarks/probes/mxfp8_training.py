"""MXFP8 training: ``MXFP8TrainingOpConfig`` on a ``Linear``, forward and backward.

The support matrix leaves MXFP8 training "not checked" on compute capability 12.0 (footnote
``[^mx120]``): torchao 0.18 enables its MXFP8 training kernels for 10.x only (``_is_sm_10x()`` is
``major == 10``), and nothing says what its default ``KernelPreference.AUTO`` does on 12.0: run,
refuse, or compute something wrong. The probe converts a bfloat16 ``Linear(256, 256)`` with the
config, runs a forward and a backward pass on a batch of 128, and compares the output with float64
(and checks that the weight's gradient is finite). ``native``: the forward product ran as
``_scaled_mm`` (the MX kernel), not emulated.

Dry run (CPU): AUTO casts with Triton and CUDA kernels and asserts that Triton is there, so the
config asks for ``KernelPreference.EMULATED``, and the MX product (``_addmm_mx_dispatch``, emulated)
runs under the name of the kernel it stands in for; the conversion, the passes and the checks are
the same code.
"""

from __future__ import annotations

import copy

import torch

from benchmarks.probes import base
from benchmarks.probes.base import Probe, ProbeResult

__all__ = ["PROBE", "run"]

PROBE = Probe(
    cell="microscaling.mxfp8-training",
    footnote="mx120",
    source="https://github.com/pytorch/ao/blob/v0.18.0/torchao/prototype/moe_training/kernels/mxfp8/quant.py#L34-L35",
    question="Does torchao's MXFP8 training config run forward and backward on this GPU, with right results?",
    stand_in="KernelPreference.EMULATED instead of AUTO (Triton and CUDA casts); the emulated MX product stands in for torch._scaled_mm",
)
#: MXFP8 (e4m3fn, one power-of-two scale per 32 values): about 3.5 % on this layer.
WRONG_LIMIT = 0.15


def _stand_ins() -> list[tuple[object, str, object]]:
    """The dry run's MX product: torchao's emulated branch, under the name of the kernel it stands in for."""
    return [base.mx_product_stand_in()]


def run(device: str) -> ProbeResult:
    """Convert a Linear for MXFP8 training and run a step's passes on ``device`` (``"cpu"``: the dry run)."""
    from torchao.prototype.moe_training.config import MXFP8TrainingOpConfig
    from torchao.quantization import quantize_
    from torchao.quantization.quantize_.common import KernelPreference

    preference = KernelPreference.AUTO if device == "cuda" else KernelPreference.EMULATED
    case = base.linear_case(device, 256, 256, rows=128)
    model = copy.deepcopy(case.model)
    grads: list[torch.Tensor] = []

    def step() -> torch.Tensor:
        with torch.enable_grad():  # base.attempt runs the workflow under no_grad
            quantize_(model, MXFP8TrainingOpConfig(kernel_preference=preference),
                      filter_fn=lambda module, fqn: isinstance(module, torch.nn.Linear))
            x = case.x.clone().requires_grad_(True)
            out = model(x)
            out.float().square().mean().backward()
        grads.append(model.weight.grad)
        return out.detach()

    with base.patched(_stand_ins() if device == "cpu" else []):
        a = base.attempt(f"MXFP8TrainingOpConfig(kernel_preference={preference})", step, device)
    outcome, line = base.verdict(a, case.reference, WRONG_LIMIT)
    lines = [line]
    if a.error is None:
        finite = bool(grads and grads[0] is not None and torch.isfinite(grads[0].float()).all())
        lines.append(f"the weight's gradient: {'finite' if finite else 'missing or not finite'}")
        if not finite:
            outcome = "wrong"
    native, product_lines = base.product(a, "_scaled_mm", device)
    return PROBE.result(device, outcome, [*lines, *product_lines], error=a.error, native=native, kernels=a.kernels)
