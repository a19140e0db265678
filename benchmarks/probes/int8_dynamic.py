"""torchao's dynamic int8 on a GPU: ``Int8DynamicActivationInt8WeightConfig``, and whether ``torch._int_mm`` did the product.

The support matrix leaves this cell "not checked" on 7.0 (V100, no int8 tensor cores) and 10.0
(B200) (footnote ``[^int8gpunc]``): torchao multiplies with ``torch._int_mm`` and, if that raises,
falls back to a float32 matmul without a word, so a run that "works" says nothing about int8
arithmetic. On the other GPUs the cell says "native" from the source; the probe checks that too.

Two attempts: ``torch._int_mm`` alone on int8 operands (exact against an int64 product), then a
float32 ``Linear(512, 512)`` quantized with the config, under the profiler. ``native``: the
config's forward ran ``aten::_int_mm`` and the direct call succeeded (so no fallback happened).

Dry run (CPU): nothing is substituted; on a CPU torchao takes its CPU branch
(``_int_scaled_matmul_cpu``), which calls ``torch._int_mm`` as well.
"""

from __future__ import annotations

import torch

from benchmarks.probes import base
from benchmarks.probes.base import Probe, ProbeResult

__all__ = ["PROBE", "run"]

PROBE = Probe(
    cell="int8-torchao.dynamic",
    footnote="int8gpunc",
    source="https://github.com/pytorch/ao/blob/v0.18.0/torchao/kernel/intmm.py#L86-L93",
    question="Does Int8DynamicActivationInt8WeightConfig multiply in int8 (torch._int_mm) on this GPU, or fall back to float32?",
    stand_in="nothing substituted; torchao takes its CPU branch, which calls torch._int_mm too",
)
#: int8 with per-row activation and per-channel weight scales: about 1 % on this layer.
WRONG_LIMIT = 0.05


def _direct(device: str) -> tuple[str, bool, str | None]:
    """``torch._int_mm`` alone on int8 operands, against the exact int64 product: (evidence, exact, error)."""
    g = torch.Generator().manual_seed(0)
    # _int_mm on CUDA wants more than 16 rows and both other sizes multiples of 8
    a = torch.randint(-128, 128, (64, 512), generator=g, dtype=torch.int8)
    b = torch.randint(-128, 128, (512, 256), generator=g, dtype=torch.int8)
    exact = a.to(torch.int64) @ b.to(torch.int64)
    direct = base.attempt("torch._int_mm(int8, int8)", lambda: torch._int_mm(a.to(device), b.to(device)), device)
    if direct.error is not None:
        return f"{direct.label}: refused: {direct.error}", False, direct.error
    if torch.equal(direct.output.cpu().to(torch.int64), exact):
        return f"{direct.label}: ran, exact ({direct.output.dtype})", True, None
    return f"{direct.label}: ran, but differs from the exact int64 product", False, None


def run(device: str) -> ProbeResult:
    """Call ``torch._int_mm`` directly, then run a Linear quantized with the config, on ``device`` (``"cpu"``: the dry run)."""
    from torchao.quantization import Int8DynamicActivationInt8WeightConfig

    direct_line, direct_ok, direct_error = _direct(device)
    case = base.linear_case(device, 512, 512, dtype=torch.float32, bias=True)
    config = base.run_config(case, "Int8DynamicActivationInt8WeightConfig()", Int8DynamicActivationInt8WeightConfig, device)
    outcome, line = base.verdict(config, case.reference, WRONG_LIMIT)
    native = None
    lines = [direct_line, line]
    if config.error is None:
        native = config.ran("aten::_int_mm") and direct_ok
        lines.append(
            "its product: aten::_int_mm" + ("" if direct_ok else ", which raised above: torchao fell back to float32")
            if config.ran("aten::_int_mm")
            else "its product: no aten::_int_mm ran (a float matmul instead)"
        )
        if device == "cuda":
            lines.append(base.kernels_line(config.kernels))
    if outcome == "works" and direct_error is None and not direct_ok:
        outcome = "wrong"
    return PROBE.result(device, outcome, lines, error=config.error or direct_error, native=native, kernels=config.kernels)
