"""Bytes per element and per model for each dtype, against the physical limit.

16-bit formats can at best halve float32's bytes (2x); int8 weights can at best
quarter them (4x), and dynamic int8 keeps a per-tensor scale and zero point and a
float32 bias, so a real model gets just under 4x. This case measures how close
real models come.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from benchmarks.cases.dynamic_int8 import quantize
from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig
from benchmarks.report import CaseResult, Column
from reference_impl._checks import dtype_name
from reference_impl.quantization.compare import state_dict_bytes

__all__ = ["run"]

_ELEMENTS = 1 << 20


def _models() -> list[tuple[Msg | str, nn.Module, type]]:
    dyn = torch.ao.nn.quantized.dynamic
    torch.manual_seed(0)
    return [
        ("Linear(1024, 1024)", nn.Sequential(nn.Linear(1024, 1024)), dyn.Linear),
        (Msg("label.lstm", d_in=256, hidden=512, layers=2), nn.Sequential(nn.LSTM(256, 512, num_layers=2)), dyn.LSTM),
        ("RNNCell(256, 512)", nn.Sequential(nn.RNNCell(256, 512)), dyn.RNNCell),
    ]


def run(cfg: BenchConfig) -> CaseResult:
    """Measure bytes per element (tensors) and per model (state_dict) for each dtype.

    Args:
        cfg: The benchmark settings (tensors are created on ``cfg.device``).

    Returns:
        The ``storage`` case (no timing: sizes are exact).
    """
    result = CaseResult(
        "storage",
        "Bytes per element and per model, per dtype",
        [
            Column("what", "col.what"),
            Column("dtype", "col.dtype"),
            Column("bytes", "col.bytes", "thousands"),
            Column("per_element", "col.per_element", "g"),
            Column("ratio", "col.smaller_than_float32", "times"),
            Column("limit", "col.limit", "times"),
            Column("of_limit", "col.share_of_limit", "share"),
        ],
    )
    dtypes = [torch.float32, torch.float16, torch.bfloat16, torch.float8_e4m3fn, torch.int8]
    base = None
    for dtype in dtypes:
        t = torch.zeros(_ELEMENTS, dtype=dtype, device=cfg.device)
        nbytes = t.untyped_storage().nbytes()
        base = base or nbytes
        limit = 4 / t.element_size()
        result.rows.append(
            {
                "what": Msg("label.tensor_elements", n=_ELEMENTS),
                "dtype": dtype_name(dtype),
                "bytes": nbytes,
                "per_element": nbytes / _ELEMENTS,
                "ratio": base / nbytes,
                "limit": limit,
                "of_limit": base / nbytes / limit,
            }
        )
    for label, model, expected in _models():
        n_params = sum(p.numel() for p in model.parameters())
        fp32 = state_dict_bytes(model)
        variants = [
            ("float32", fp32, 1.0),
            ("float16", state_dict_bytes(copy.deepcopy(model).half()), 2.0),
            ("bfloat16", state_dict_bytes(copy.deepcopy(model).bfloat16()), 2.0),
            (Msg("label.int8_dynamic_weights"), state_dict_bytes(quantize(model, expected)), 4.0),
        ]
        for name, nbytes, limit in variants:
            result.rows.append(
                {
                    "what": Msg("label.state_dict", model=label),
                    "dtype": name,
                    "bytes": nbytes,
                    "per_element": round(nbytes / n_params, 3),
                    "ratio": fp32 / nbytes,
                    "limit": limit,
                    "of_limit": fp32 / nbytes / limit,
                }
            )
    result.notes += [Msg("note.model_sizes"), Msg("note.sizes_exact")]
    return result
