"""PT2E static int8 (torchao's ``prepare_pt2e``/``convert_pt2e``, x86 quantizer) against float32.

The converted graph holds quantize/dequantize ops around float32 ``linear``: as it is, or
compiled without freezing, it computes in float32 and only adds work. Compiled with
``torch._inductor.config.freezing = True``, Inductor lowers each q/dq + linear pattern to
oneDNN's int8 ``qlinear_pointwise``. Three rows: the converted graph eager (against float32
eager), compiled without freezing and compiled with freezing (each against float32 compiled
with the same freezing setting). Each variant is checked to be what it says: the converted
graph has quantize/dequantize ops, and the frozen compile's generated code calls
``qlinear`` while the unfrozen one does not. Compiling takes tens of seconds on a small CPU,
so quick mode measures the eager row only.

On torch 2.11 the recipe quantizes nothing, and the case says so instead of measuring:
``torch.export.export`` (non-strict, the default) no longer records ``source_fn_stack``,
and 2.11's ``get_source_partitions`` (which the x86 quantizer uses to find each
``nn.Linear``) does not read ``nn_module_stack`` instead; torch 2.13 does (PyTorch pull
request 175788, fixing torchao issue 3914). The case asks the exported graph itself: on a
torch before 2.13, when ``get_source_partitions`` finds none of its ``nn.Linear`` layers,
nothing can be annotated and the table carries that note instead of rows. Otherwise a
``convert_pt2e`` that quantized nothing is refused (``VariantNotEngagedError``), as before.
"""

from __future__ import annotations

import copy
import importlib
import re
import warnings
from contextlib import contextmanager

import torch
from torch import nn

from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig, relative_l2
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns
from reference_impl.errors import VariantNotEngagedError

__all__ = ["linear_partitions", "run"]

QLINEAR = re.compile(r"qlinear")

#: From this torch on, ``get_source_partitions`` finds the modules of a non-strict export through
#: ``nn_module_stack`` (checked: 2.13 does, 2.11 does not). On such a torch a graph in which it finds
#: no ``nn.Linear`` is refused like any other quantize-nothing result; before it, the case reports it.
SOURCE_PARTITIONS_READ_MODULE_STACK = "2.13"


@contextmanager
def _quiet():
    """Warnings torch's own code raises on the way (not this case's): inductor's import of
    torch.utils.mkldnn, its int8 lowering's torch.tensor(tensor), torch.export's LeafSpec check."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"`torch\.jit\.script_method` is deprecated", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message="To copy construct from a tensor", category=UserWarning)
        warnings.filterwarnings("ignore", message=r"`isinstance\(treespec, LeafSpec\)` is deprecated", category=FutureWarning)
        yield


def linear_partitions(graph_module: torch.fx.GraphModule) -> int:
    """How many ``nn.Linear`` layers of an exported graph ``get_source_partitions`` finds.

    The x86 quantizer annotates only what this finds. With torch 2.11 it finds none in a
    non-strict export (no ``source_fn_stack``, no ``nn_module_stack`` fallback before 2.13).
    """
    from torch.fx.passes.utils.source_matcher_utils import get_source_partitions

    found = get_source_partitions(graph_module.graph, [nn.Linear, nn.functional.linear])
    return sum(len(partitions) for partitions in found.values())


def _compiled(model: nn.Module, x: torch.Tensor, freezing: bool):
    """``torch.compile(model)`` with Inductor's freezing on or off, and its generated code."""
    from torch._inductor import config as inductor_config
    from torch._inductor.utils import run_and_get_code

    torch._dynamo.reset()
    compiled = torch.compile(model)
    with inductor_config.patch(freezing=freezing), torch.no_grad():
        _, code = run_and_get_code(compiled, x)

    def call():
        with inductor_config.patch(freezing=freezing), torch.no_grad():
            return compiled(x)

    return call, "\n".join(code)


def run(cfg: BenchConfig) -> CaseResult:
    """Measure a PT2E int8 model against float32: eager, and compiled without and with freezing.

    Args:
        cfg: The benchmark settings.

    Returns:
        The ``pt2e`` case.
    """
    features, batch = 1024, 32
    result = CaseResult(
        "pt2e",
        f"PT2E int8 (x86 quantizer) vs float32, 2x Linear({features}, {features}), batch {batch}",
        [
            Column("mode", "col.mode"),
            Column("kernel", "col.int8_kernel"),
            *timed_columns("col.float32_ms", "col.int8_ms"),
            Column("error", "col.error", "percent"),
        ],
    )
    if cfg.device != "cpu":
        result.notes.append(Msg("note.pt2e_cpu_only"))
        return result
    try:
        with _quiet():
            from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
            from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
                X86InductorQuantizer,
                get_default_x86_inductor_quantization_config,
            )
    except ImportError as err:
        result.notes.append(Msg("note.torchao_missing", error=f"{type(err).__name__}: {err}"))
        return result
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(features, features), nn.ReLU(), nn.Linear(features, features)).eval()
    x = torch.randn(batch, features, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        ref = copy.deepcopy(model).double()(x.double())
    with _quiet():
        exported = torch.export.export(model, (x,)).module()
        found = linear_partitions(exported)
        prepared = prepare_pt2e(exported, X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config()))
        calibration = torch.Generator().manual_seed(2)
        for _ in range(8):
            prepared(torch.randn(batch, features, generator=calibration))
        quantized = convert_pt2e(prepared)
    qdq = sum(1 for n in quantized.graph.nodes if n.op == "call_function" and "quantize_per" in str(n.target))
    if qdq == 0 and found == 0 and not torch.__version__ >= SOURCE_PARTITIONS_READ_MODULE_STACK:
        # This torch cannot tell the quantizer where the Linear layers are (torch 2.11): a known
        # limitation of the version, reported in the table, not a run that silently measured float32.
        result.notes.append(Msg("note.pt2e_no_source_partitions", torch=str(torch.__version__)))
        return result
    if qdq == 0:
        raise VariantNotEngagedError(
            f"convert_pt2e returned a graph without quantize/dequantize ops: nothing was quantized, though "
            f"get_source_partitions found {found} Linear layer(s) in the exported graph"
        )

    def eager(module):
        def call():
            with torch.no_grad():
                return module(x)
        return call

    def measure(mode: str, label: Msg | str, fp32, int8, kernel) -> None:
        with _quiet():
            comparisons = cfg.compare(("float32 " + mode, fp32), {"int8": int8})
            error = relative_l2(int8(), ref)
        c = comparisons["int8"]
        result.add_comparison(f"PT2E int8 ({mode})", c)
        result.rows.append({"mode": label, "kernel": kernel, **comparison_cells(c), "error": error})

    measure("eager", "eager", eager(model), eager(quantized), Msg("value.reference_decomposed"))
    if cfg.compile:
        with _quiet():
            importlib.import_module("torch._inductor.compile_fx")
        for freezing in (False, True):
            # Measured right after compiling: dynamo's cache does not guard on Inductor's config, so
            # a second compile of the same graph with the other setting would reuse the first one's code
            # (torch._dynamo.reset() in _compiled clears it).
            with _quiet():
                fp32, _ = _compiled(copy.deepcopy(model), x, freezing)
                int8, code = _compiled(quantized, x, freezing)
            lowered = bool(QLINEAR.search(code))
            if lowered != freezing:
                raise VariantNotEngagedError(
                    f"PT2E compiled with freezing={freezing}: qlinear {'missing from' if freezing else 'found in'} "
                    "Inductor's generated code"
                )
            kernel = "onednn.qlinear_pointwise" if lowered else Msg("value.pt2e_addmm")
            mode = "torch.compile, freezing " + ("on" if freezing else "off")
            measure(mode, Msg("mode.compile_freezing_" + ("on" if freezing else "off")), fp32, int8, kernel)
    result.notes += [Msg("note.pt2e_same_mode"), Msg("note.median_rounds", rounds=cfg.rounds)]
    if not cfg.compile:
        result.notes.append(Msg("note.quick_no_compile"))
    return result
