"""ONNX Runtime: a float32 model against its int8 version, both run by onnxruntime on CPU.

The model (``Linear(1024, 1024)``, ReLU, ``Linear(1024, 1024)``) is exported with the
dynamo exporter (``torch.onnx.export(..., dynamo=True)``), prepared with
``quant_pre_process`` and quantized with ``onnxruntime.quantization.quantize_dynamic``
(int8 weights, activations quantized per call), as on the site's ONNX Runtime page.
Both sessions use ``cfg.threads`` intra-op threads and run at batch 1 and 64.
The case is CPU-only; with ``--device cuda`` it says so and measures nothing.
"""

from __future__ import annotations

import logging
import tempfile
import warnings
from pathlib import Path

import torch
from torch import nn

from benchmarks.catalog import Msg, english
from benchmarks.config import BenchConfig, relative_l2
from benchmarks.environment import has_vnni
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns

__all__ = ["run"]

FEATURES = 1024


def _model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(FEATURES, FEATURES), nn.ReLU(), nn.Linear(FEATURES, FEATURES)).eval()


def _export(model: nn.Module, path: Path) -> None:
    example = torch.randn(4, FEATURES)
    batch = torch.export.Dim("batch", min=1)
    with warnings.catch_warnings():
        # torch 2.13's exporter copies the model with a pytree API it has itself deprecated.
        warnings.filterwarnings("ignore", message="`isinstance\\(treespec, LeafSpec\\)` is deprecated", category=FutureWarning)
        torch.onnx.export(model, (example,), path, dynamo=True, verbose=False,
                          dynamic_shapes=({0: batch},), external_data=False)


def _weight_bytes(path: Path) -> int:
    import onnx
    from onnx import numpy_helper

    return sum(numpy_helper.to_array(t).nbytes for t in onnx.load(path).graph.initializer)


def run(cfg: BenchConfig) -> CaseResult:
    """Measure onnxruntime float32 against onnxruntime int8 (dynamic quantization).

    Args:
        cfg: The benchmark settings.

    Returns:
        The ``onnx_runtime`` case (empty with a note when onnxruntime is missing or the
        device is not the CPU).
    """
    result = CaseResult(
        "onnx_runtime",
        f"onnxruntime float32 vs int8, 2x Linear({FEATURES}, {FEATURES})",
        [
            Column("batch", "col.batch"),
            *timed_columns("col.float32_ms", "col.int8_ms"),
            Column("size_ratio", "col.weights_smaller", "times"),
            Column("error", "col.int8_error", "percent"),
        ],
    )
    if cfg.device != "cpu":
        result.notes.append(Msg("note.onnxruntime_cpu_only"))
        return result
    try:
        import onnxruntime as ort
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from onnxruntime.quantization.shape_inference import quant_pre_process
    except ImportError as err:
        result.notes.append(Msg("note.onnxruntime_missing", error=f"{type(err).__name__}: {err}"))
        return result

    model = _model()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # the exporter logs which optional torchvision ops it skips; nothing to act on here
        logging.getLogger("torch.onnx").setLevel(logging.ERROR)
        _export(model, folder / "float.onnx")
        quant_pre_process(folder / "float.onnx", folder / "prepared.onnx")
        # Without VNNI, ONNX Runtime's U8S8 kernels saturate int16 pair sums (7.5 % error was
        # measured on an AVX2-only CPU); ONNX Runtime advises 7-bit weights there.
        reduce_range = not has_vnni()
        quantize_dynamic(
            folder / "prepared.onnx", folder / "int8.onnx", weight_type=QuantType.QInt8, reduce_range=reduce_range
        )
        if reduce_range:
            result.notes.append(Msg("note.onnxruntime_reduce_range"))
        size_ratio = _weight_bytes(folder / "float.onnx") / _weight_bytes(folder / "int8.onnx")
        options = ort.SessionOptions()
        options.intra_op_num_threads = cfg.threads
        options.inter_op_num_threads = 1
        sessions = {
            name: ort.InferenceSession(str(folder / f"{name}.onnx"), options, providers=["CPUExecutionProvider"])
            for name in ("float", "int8")
        }
    input_name = sessions["float"].get_inputs()[0].name
    g = torch.Generator().manual_seed(0)
    for batch in (1, 64):
        x = torch.randn(batch, FEATURES, generator=g)
        feed = {input_name: x.numpy()}
        with torch.no_grad():
            reference = _model().double()(x.double())
        int8_out = torch.from_numpy(sessions["int8"].run(None, feed)[0])
        label = Msg("label.batch", batch=batch)
        name = english(label)
        c = cfg.compare(
            ("float32", lambda feed=feed: sessions["float"].run(None, feed)),
            {name: lambda feed=feed: sessions["int8"].run(None, feed)},
        )[name]
        result.add_comparison(label, c)
        result.rows.append(
            {"batch": batch, **comparison_cells(c), "size_ratio": size_ratio, "error": relative_l2(int8_out, reference)}
        )
    result.notes.append(
        Msg("note.onnxruntime_method", version=ort.__version__, threads=cfg.threads,
            _s="s" if cfg.threads != 1 else "", rounds=cfg.rounds)
    )
    return result
