import copy
import re
import tempfile
import warnings
from pathlib import Path

import onnx
import torch
from torch import nn
from torchao.quantization import (
    Int8DynamicActivationInt8WeightConfig,
    IntxWeightOnlyConfig,
    quantize_,
)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 4)).eval()  # imagine a trained model
example = torch.randn(4, 64)
folder = Path(tempfile.mkdtemp())


def export(module, name):
    """Export with torch 2.13's default (dynamo) exporter; print the error's type and cause if it fails."""
    try:
        with warnings.catch_warnings():
            # torch 2.13's exporter copies the model with a pytree API it has itself deprecated.
            warnings.filterwarnings("ignore", message="`isinstance\\(treespec, LeafSpec\\)` is deprecated", category=FutureWarning)
            torch.onnx.export(module, (example,), folder / f"{name}.onnx", dynamo=True, verbose=False, external_data=False)
    except torch.onnx.OnnxExporterError as error:  # TorchExportError, ConversionError, ...
        # The message opens with the step that failed; the cause is under "## Exception summary".
        lines = str(error).splitlines()
        cause = lines[lines.index("## Exception summary") + 2] if "## Exception summary" in lines else lines[0]
        cause = re.sub(r"^<class '(?:[\w.]+\.)?(\w+)'>", r"\1", cause)  # <class 'a.b.DispatchError'> -> DispatchError
        print(f"{name}: {type(error).__name__} {lines[0].split('. ')[0]}.\n  caused by {cause}")
        return
    graph = onnx.load(folder / f"{name}.onnx").graph
    weights = sorted({onnx.helper.tensor_dtype_to_np_dtype(t.data_type).name for t in graph.initializer})
    print(f"{name}: exported, ops {sorted({node.op_type for node in graph.node})}, weights stored as {weights}")


# 1. Eager dynamic quantization (torch.ao): torch.export cannot trace its packed weights.
with warnings.catch_warnings():
    # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page).
    warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    dynamic = torch.ao.quantization.quantize_dynamic(copy.deepcopy(model), {nn.Linear}, dtype=torch.qint8)
print("module:", type(dynamic[0]).__module__, type(dynamic[0]).__name__)
export(dynamic, "torch_ao_dynamic")

# 2. torchao int8 activations and weights: the int8 matrix product has no ONNX translation.
int8_dynamic = copy.deepcopy(model)
quantize_(int8_dynamic, Int8DynamicActivationInt8WeightConfig())
print("weight:", type(int8_dynamic[0].weight).__name__)
export(int8_dynamic, "torchao_int8_dynamic")

# 3. torchao weight-only: the export succeeds, but the file holds the dequantized float32 weights.
weight_only = copy.deepcopy(model)
quantize_(weight_only, IntxWeightOnlyConfig(weight_dtype=torch.int8))
print("weight:", type(weight_only[0].weight).__name__)
export(weight_only, "torchao_weight_only")
