"""torchao int8 against float32: ``Int8DynamicActivationInt8WeightConfig`` and
``Int8WeightOnlyConfig``, eager and under ``torch.compile``.

torchao replaces the weights of ``nn.Linear`` layers with int8 tensor subclasses.
Without ``torch.compile`` the subclass dispatch runs in Python and can be slower
than float32; compiled, the int8 matmul is fused. Compiling takes tens of seconds
on a small CPU, so quick mode measures eager only.

Importing torchao prints notices about optional CUDA extensions to stderr on a
CPU-only machine; they are harmless here.
"""

from __future__ import annotations

import copy
import importlib
import warnings

import torch
from torch import nn

from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig, relative_l2
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns
from reference_impl.quantization.compare import state_dict_bytes

__all__ = ["run"]


def _model(features: int) -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(features, features), nn.ReLU(), nn.Linear(features, features)).eval()


def run(cfg: BenchConfig) -> CaseResult:
    """Measure torchao int8 configs against float32, eager (and compiled unless quick).

    Args:
        cfg: The benchmark settings.

    Returns:
        The ``torchao`` case.
    """
    features, batch = (4096, 256) if cfg.device == "cuda" else (1024, 32)
    result = CaseResult(
        "torchao",
        f"torchao int8 vs float32, 2x Linear({features}, {features}), batch {batch}",
        [
            Column("config", "col.torchao_config"),
            Column("mode", "col.mode"),
            Column("weight", "col.weight_type"),
            *timed_columns("col.float32_ms", "col.int8_ms"),
            Column("size_ratio", "col.state_dict_smaller", "times"),
            Column("error", "col.error", "percent"),
        ],
    )
    try:
        from torchao.quantization import Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig, quantize_
    except ImportError as err:
        result.notes.append(Msg("note.torchao_missing", error=f"{type(err).__name__}: {err}"))
        return result
    model = _model(features).to(cfg.device)
    x = torch.randn(batch, features, generator=torch.Generator().manual_seed(1)).to(cfg.device)
    with torch.no_grad():
        ref = copy.deepcopy(model).double()(x.double())
    configs = {
        "Int8DynamicActivationInt8WeightConfig": Int8DynamicActivationInt8WeightConfig,
        "Int8WeightOnlyConfig": Int8WeightOnlyConfig,
    }
    quantized = {}
    for name, config in configs.items():
        q = copy.deepcopy(model)
        quantize_(q, config())
        weight_type = type(q[0].weight)
        if weight_type in (torch.Tensor, nn.Parameter):
            raise RuntimeError(f"torchao {name} left the Linear weight as a plain float tensor")
        quantized[name] = (q, weight_type.__name__)
    modes = ["eager"] + (["torch.compile"] if cfg.compile else [])
    if cfg.compile:
        # Importing inductor defines torch.utils.mkldnn's TorchScript classes, which warn
        # that torch.jit.script_method is deprecated (torch's own code, not ours).
        with warnings.catch_warnings():
            warnings.filterwarnings(
                "ignore", message=r"`torch\.jit\.script_method` is deprecated", category=DeprecationWarning
            )
            importlib.import_module("torch._inductor.compile_fx")
    for mode in modes:
        wrap = torch.compile if mode == "torch.compile" else (lambda m: m)
        base = wrap(model)

        def fp32(base=base):
            with torch.no_grad():
                return base(x)

        variants = {}
        for name, (q, _) in quantized.items():
            compiled = wrap(q)

            def int8(compiled=compiled):
                with torch.no_grad():
                    return compiled(x)

            variants[name] = int8
        comparisons = cfg.compare(("float32 " + mode, fp32), variants)
        for name, c in comparisons.items():
            label = f"{name} ({mode})"
            result.add_comparison(label, c)
            q, weight_type = quantized[name]
            result.rows.append(
                {
                    "config": name,
                    "mode": mode,
                    "weight": weight_type,
                    **comparison_cells(c),
                    "size_ratio": state_dict_bytes(model) / state_dict_bytes(q),
                    "error": relative_l2(variants[name](), ref),
                }
            )
    result.notes += [Msg("note.same_mode"), Msg("note.median_rounds", rounds=cfg.rounds)]
    if not cfg.compile:
        result.notes.append(Msg("note.quick_no_compile"))
    return result
