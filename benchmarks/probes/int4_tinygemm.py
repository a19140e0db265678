"""int4 weights in tinygemm's layout: ``Int4WeightOnlyConfig(int4_packing_format="tile_packed_to_4d")``.

The support matrix says "native" from 8.0 on from the source alone (footnote ``[^tinygemm]``):
torchao packs the weights for PyTorch's ``_weight_int4pack_mm`` and refuses GPUs below 8.0; it
was never run on a GPU for the site. The probe quantizes a bfloat16 ``Linear(512, 256)``, runs it
and compares with float64. ``native``: the product ran as ``aten::_weight_int4pack_mm``.

Dry run (CPU): three GPU-only calls are substituted: the capability check
(``torch.cuda.get_device_capability``, which raises without CUDA) answers 9.0, and packing and
product go to PyTorch's CPU twins ``_convert_weight_to_int4pack_for_cpu`` and
``_weight_int4pack_mm_for_cpu`` (the same tinygemm layout of scales and zero points).
"""

from __future__ import annotations

import torch

from benchmarks.probes import base
from benchmarks.probes.base import Probe, ProbeResult

__all__ = ["PROBE", "run"]

PROBE = Probe(
    cell="int4.tinygemm-packing",
    footnote="tinygemm",
    source=(
        "https://github.com/pytorch/ao/blob/v0.18.0/torchao/quantization/quantize_/workflows/int4/"
        "int4_tile_packed_to_4d_tensor.py#L124-L127"
    ),
    question="Does Int4WeightOnlyConfig with tinygemm packing run on this GPU, with right results?",
    stand_in="the capability check answers 9.0; packing and product run on PyTorch's CPU twins (_for_cpu)",
)
#: int4 with a scale and zero point per 128 weights: about 7 % on this layer.
WRONG_LIMIT = 0.3


def _convert_for_cpu(packed: torch.Tensor, inner_k_tiles: int) -> torch.Tensor:
    """The CUDA packing's input (two int4 values per uint8, high nibble first) for the CPU twin."""
    high, low = (packed >> 4).to(torch.int32), (packed & 15).to(torch.int32)
    values = torch.stack([high, low], dim=-1).reshape(packed.shape[0], -1)
    return torch.ops.aten._convert_weight_to_int4pack_for_cpu(values.contiguous(), inner_k_tiles)


def _stand_ins() -> list[tuple[object, str, object]]:
    return [
        (torch.cuda, "get_device_capability", lambda *args, **kwargs: (9, 0)),
        (torch.ops.aten, "_convert_weight_to_int4pack",
         base.stand_in_op("aten::_convert_weight_to_int4pack", _convert_for_cpu)),
        (torch.ops.aten, "_weight_int4pack_mm",
         base.stand_in_op("aten::_weight_int4pack_mm", torch.ops.aten._weight_int4pack_mm_for_cpu)),
    ]


def run(device: str) -> ProbeResult:
    """Quantize a Linear with tinygemm packing and run it on ``device`` (``"cpu"``: the dry run)."""
    from torchao.quantization import Int4WeightOnlyConfig

    case = base.linear_case(device, 512, 256)
    a = base.run_config(case, 'Int4WeightOnlyConfig(int4_packing_format="tile_packed_to_4d")',
                   lambda: Int4WeightOnlyConfig(int4_packing_format="tile_packed_to_4d"), device, _stand_ins)
    outcome, line = base.verdict(a, case.reference, WRONG_LIMIT)
    native, lines = base.product(a, "aten::_weight_int4pack_mm", device)
    return PROBE.result(device, outcome, [line, *lines], error=a.error, native=native, kernels=a.kernels)
