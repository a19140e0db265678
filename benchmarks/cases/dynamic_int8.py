"""Dynamic int8 (``torch.ao.quantization.quantize_dynamic``) against float32, on CPU.

Models: ``Linear(64, 64)`` and ``Linear(256, 256)`` at batch 1 (small layers, where the
per-call quantization overhead can outweigh the int8 saving);
``Linear(1024, 1024)`` at batch 1, 16 and 128; a 2-layer ``LSTM(256, 512)``
over 64 steps at batch 8; ``RNNCell(256, 512)`` as one step at batch 1 and 32,
and as a 64-step Python loop at batch 8. For each: latency ratio, state_dict
size ratio, and relative L2 error of both variants against a float64 run.
Each quantized model is checked to really hold the dynamic quantized module.
"""

from __future__ import annotations

import copy
from typing import Callable

import torch
from torch import nn

from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig, expected_ao_deprecations, relative_l2
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns
from reference_impl.errors import ConfigError
from reference_impl.quantization.compare import state_dict_bytes

__all__ = ["run"]


class _Wrap(nn.Module):
    """quantize_dynamic replaces *children* only: a bare module passed to it stays float."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.inner = inner

    def forward(self, *args):
        return self.inner(*args)


class _CellLoop(nn.Module):
    def __init__(self, cell: nn.Module) -> None:
        super().__init__()
        self.cell = cell

    def forward(self, xs: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        for x in xs:
            h = self.cell(x, h)
        return h


def _setups(quick: bool) -> list[tuple[Msg, nn.Module, type, Callable[[torch.dtype], tuple]]]:
    g = torch.Generator().manual_seed(0)

    def inputs(*shapes):
        tensors = [torch.randn(*s, generator=g) for s in shapes]
        return lambda dtype: tuple(t.to(dtype) for t in tensors)

    dyn = torch.ao.nn.quantized.dynamic
    torch.manual_seed(0)
    small, medium = _Wrap(nn.Linear(64, 64)), _Wrap(nn.Linear(256, 256))
    linear = _Wrap(nn.Linear(1024, 1024))
    lstm = _Wrap(nn.LSTM(256, 512, num_layers=2))
    cell = nn.RNNCell(256, 512)
    lstm_name = Msg("label.lstm", d_in=256, hidden=512, layers=2)
    cell_name = "RNNCell(256, 512)"
    return [
        (Msg("label.linear_batch", n=64, batch=1), small, dyn.Linear, inputs((1, 64))),
        (Msg("label.linear_batch", n=256, batch=1), medium, dyn.Linear, inputs((1, 256))),
        (Msg("label.linear_batch", n=1024, batch=1), linear, dyn.Linear, inputs((1, 1024))),
        (Msg("label.linear_batch", n=1024, batch=16), linear, dyn.Linear, inputs((16, 1024))),
        (Msg("label.linear_batch", n=1024, batch=128), linear, dyn.Linear, inputs((128, 1024))),
        (Msg("label.steps_batch", model=lstm_name, steps=64, batch=8), lstm, dyn.LSTM, inputs((64, 8, 256))),
        (Msg("label.one_step_batch", model=cell_name, batch=1), _Wrap(cell), dyn.RNNCell, inputs((1, 256), (1, 512))),
        (Msg("label.one_step_batch", model=cell_name, batch=32), _Wrap(cell), dyn.RNNCell,
         inputs((32, 256), (32, 512))),
        (Msg("label.loop_batch", model=cell_name, steps=64, batch=8), _CellLoop(cell), dyn.RNNCell,
         inputs((64, 8, 256), (8, 512))),
    ]


def _first_output(out):
    return out[0] if isinstance(out, tuple) else out


def quantize(model: nn.Module, expected: type) -> nn.Module:
    """Quantize a float model dynamically to int8 and check the module really changed.

    Args:
        model: A float model whose *child* is a Linear, LSTM or RNNCell.
        expected: The dynamic quantized class the child must become.

    Returns:
        The quantized copy (the float model is left as it is).

    Raises:
        ConfigError: No child of the expected type was produced (the model stayed float).
    """
    with expected_ao_deprecations():
        q = torch.ao.quantization.quantize_dynamic(
            copy.deepcopy(model).eval(), {nn.Linear, nn.LSTM, nn.RNNCell}, dtype=torch.qint8
        )
    if not any(type(m) is expected for m in q.modules()):
        raise ConfigError(f"quantize_dynamic left the model float: no {expected.__name__} inside {type(model).__name__}")
    return q


def run(cfg: BenchConfig) -> CaseResult:
    """Measure dynamic int8 against float32 (CPU only: the kernels are fbgemm/x86/onednn).

    Args:
        cfg: The benchmark settings.

    Returns:
        The ``dynamic_int8`` case.
    """
    result = CaseResult(
        "dynamic_int8",
        "Dynamic int8 (quantize_dynamic) vs float32",
        [
            Column("model", "col.model"),
            Column("module", "col.module"),
            *timed_columns("col.float32_ms", "col.int8_ms"),
            Column("size_ratio", "col.state_dict_smaller", "times"),
            Column("error_int8", "col.int8_error", "percent"),
            Column("error_fp32", "col.float32_error", "sci1"),
        ],
    )
    if cfg.device != "cpu":
        result.notes.append(Msg("note.ao_cpu_only"))
        return result
    quantized_cache: dict[int, nn.Module] = {}
    for label, model, expected, make_inputs in _setups(cfg.quick):
        model = model.eval()
        q = quantized_cache.setdefault(id(model), quantize(model, expected))
        x32 = make_inputs(torch.float32)
        x64 = make_inputs(torch.float64)
        with torch.no_grad():
            ref = _first_output(copy.deepcopy(model).double()(*x64))
            out32 = _first_output(model(*x32))
            out8 = _first_output(q(*x32))

        def fp32(model=model, x=x32):
            with torch.no_grad():
                return model(*x)

        def int8(q=q, x=x32):
            with torch.no_grad():
                return q(*x)

        comparison = cfg.compare(("float32", fp32), {"int8 dynamic": int8})["int8 dynamic"]
        result.add_comparison(label, comparison)
        result.rows.append(
            {
                "model": label,
                "module": f"dynamic.{expected.__name__}",
                **comparison_cells(comparison),
                "size_ratio": state_dict_bytes(model) / state_dict_bytes(q),
                "float32_bytes": state_dict_bytes(model),
                "int8_bytes": state_dict_bytes(q),
                "error_int8": relative_l2(out8, ref),
                "error_fp32": relative_l2(out32, ref),
            }
        )
    result.notes += [
        Msg("note.int8_ratios", rounds=cfg.rounds, threads=cfg.threads, _s="s" if cfg.threads > 1 else ""),
        Msg("note.size_state_dict"),
        Msg("note.errors_float64"),
    ]
    return result
