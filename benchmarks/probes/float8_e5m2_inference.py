"""float8 inference with e5m2: ``Float8DynamicActivationFloat8WeightConfig`` with e5m2 in one or both operands.

The support matrix leaves the e5m2 column of float8 inference "not checked" on 8.9, 9.0 and
10.0 (footnote ``[^f8e5m2inf]``): the config takes ``activation_dtype`` and ``weight_dtype``
(both e4m3fn by default), PyTorch's CUDA kernel refuses a product of two e5m2 matrices, and e5m2
in only one of the two was never run. The probe quantizes a bfloat16 ``Linear(256, 256)`` three
ways (e5m2 activations, e5m2 weights, both), runs it, and compares with float64.

Verdict: ``works`` if an e5m2 variant runs with a right result, ``refused`` if all three raise,
``wrong`` if one runs with a wrong result. ``native``: the float8 product ran as ``_scaled_mm``.

Dry run (CPU): torchao's hardware check (compute capability 8.9 or newer) is the GPU-only call; it
is bypassed, and PyTorch's CPU ``_scaled_mm`` multiplies instead of the CUDA kernel.
"""

from __future__ import annotations

import torch

from benchmarks.probes import base
from benchmarks.probes.base import Probe, ProbeResult

__all__ = ["PROBE", "run"]

PROBE = Probe(
    cell="float8-inference.e5m2",
    footnote="f8e5m2inf",
    source="https://github.com/pytorch/ao/blob/v0.18.0/torchao/quantization/quant_api.py#L1164-L1165",
    question="Does torchao's float8 inference run, and give right results, with e5m2 activations or weights?",
    stand_in="torchao's hardware check bypassed; PyTorch's CPU _scaled_mm multiplies",
)
#: e5m2 keeps 2 mantissa bits (a rounding error up to 12.5 % per value); a layout or scale bug
#: gives errors near 100 %.
WRONG_LIMIT = 0.25

_E4M3, _E5M2 = torch.float8_e4m3fn, torch.float8_e5m2
VARIANTS = {
    "e5m2 activations, e4m3fn weights": (_E5M2, _E4M3),
    "e4m3fn activations, e5m2 weights": (_E4M3, _E5M2),
    "e5m2 activations and weights": (_E5M2, _E5M2),
}


def _stand_ins() -> list[tuple[object, str, object]]:
    """The dry run's one substitution: torchao asserts compute capability >= 8.9 before quantizing."""
    from torchao.quantization import quant_api

    return [(quant_api, "_check_hardware_support", lambda granularity: None)]


def run(device: str) -> ProbeResult:
    """Quantize and run a Linear with each e5m2 variant on ``device`` (``"cpu"``: the dry run)."""
    from torchao.quantization import Float8DynamicActivationFloat8WeightConfig

    case = base.linear_case(device, 256, 256)
    attempts = [
        base.run_config(case, label, lambda a=activation, w=weight: Float8DynamicActivationFloat8WeightConfig(
            activation_dtype=a, weight_dtype=w), device, _stand_ins)
        for label, (activation, weight) in VARIANTS.items()
    ]
    verdicts = [base.verdict(a, case.reference, WRONG_LIMIT) for a in attempts]
    outcomes = [o for o, _ in verdicts]
    lines = [line + (" (float8 product: _scaled_mm)" if a.ran("scaled_mm") else "") for a, (_, line) in zip(attempts, verdicts)]
    ran = [a for a, o in zip(attempts, outcomes) if o != "refused"]
    if "wrong" in outcomes:
        outcome = "wrong"
    elif "works" in outcomes:
        outcome = "works"
    else:
        outcome = "refused"
    kernels = tuple(k for a in ran for k in a.kernels)
    if device == "cuda":
        lines.append(base.kernels_line(kernels))
    errors = [f"{a.label}: {a.error}" for a in attempts if a.error]
    native = all(a.ran("scaled_mm") for a in ran) if ran else None
    return PROBE.result(device, outcome, lines, error=" | ".join(errors) or None, native=native, kernels=kernels)
