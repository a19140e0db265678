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

import copy

import torch
from torch import nn

from benchmarks.probes.base import (
    ProbeResult,
    attempt,
    capability_of,
    cell_id,
    kernels_line,
    patched,
    verdict,
)

__all__ = ["CELL", "FOOTNOTE", "QUESTION", "SOURCE", "STAND_IN", "run"]

CELL = "float8-inference.e5m2"
FOOTNOTE = "f8e5m2inf"
SOURCE = "https://github.com/pytorch/ao/blob/v0.18.0/torchao/quantization/quant_api.py#L1164-L1165"
QUESTION = "Does torchao's float8 inference run, and give right results, with e5m2 activations or weights?"
#: What the dry run on a CPU substitutes.
STAND_IN = "torchao's hardware check bypassed; PyTorch's CPU _scaled_mm multiplies"
#: e5m2 keeps 2 mantissa bits (a rounding error up to 12.5 % per value); a layout or scale bug
#: gives errors near 100 %.
WRONG_LIMIT = 0.25

_E4M3, _E5M2 = torch.float8_e4m3fn, torch.float8_e5m2
VARIANTS = {
    "e5m2 activations, e4m3fn weights": (_E5M2, _E4M3),
    "e4m3fn activations, e5m2 weights": (_E4M3, _E5M2),
    "e5m2 activations and weights": (_E5M2, _E5M2),
}


def run(device: str) -> ProbeResult:
    """Quantize and run a Linear with each e5m2 variant on ``device``.

    Args:
        device: ``"cuda"``, or ``"cpu"`` for the dry run.

    Returns:
        The result for the cell of this GPU's compute capability.
    """
    from torchao.quantization import (
        Float8DynamicActivationFloat8WeightConfig,
        quant_api,
        quantize_,
    )

    capability = capability_of(device)
    torch.manual_seed(0)
    model = nn.Linear(256, 256, bias=False).to(device=device, dtype=torch.bfloat16).eval()
    x = torch.randn(64, 256, device=device, dtype=torch.bfloat16)
    reference = x.double() @ model.weight.double().t()
    # the dry run's one substitution: torchao asserts compute capability >= 8.9 before quantizing
    stand_in = [(quant_api, "_check_hardware_support", lambda granularity: None)] if device == "cpu" else []
    attempts = []
    with patched(stand_in):
        for label, (activation_dtype, weight_dtype) in VARIANTS.items():
            q = copy.deepcopy(model)
            config = Float8DynamicActivationFloat8WeightConfig(activation_dtype=activation_dtype, weight_dtype=weight_dtype)

            def call(q=q, config=config) -> torch.Tensor:
                quantize_(q, config)
                return q(x)

            attempts.append(attempt(label, call, device))
    verdicts = [verdict(a, reference, WRONG_LIMIT) for a in attempts]
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
        lines.append(kernels_line(kernels))
    errors = [f"{a.label}: {a.error}" for a in attempts if a.error]
    return ProbeResult(
        cell_id=cell_id(capability, CELL),
        outcome=outcome,
        evidence="\n".join(lines),
        error=" | ".join(errors) or None,
        native=all(a.ran("scaled_mm") for a in ran) if ran else None,
        footnote=FOOTNOTE,
        source=SOURCE,
        kernels=kernels[:8],
    )
