"""ONNX export with the current (dynamo) exporter, checked in ONNX Runtime against PyTorch."""

import warnings

import numpy as np
import onnx
import onnxruntime as ort
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3)).eval()
example = (torch.randn(8, 4),)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    onnx_program = torch.onnx.export(
        model,
        example,
        dynamo=True,  # the default in torch 2.13; written out for readers of older code
        input_names=["features"],
        output_names=["logits"],
        dynamic_shapes=({0: "batch"},),
        verbose=False,
    )
# torch 2.13's exporter warns from its own internals; shown here, not hidden
for message in sorted({f"{w.category.__name__}: {w.message}" for w in caught}):
    print(message)
onnx_program.save("classifier.onnx")

proto = onnx.load("classifier.onnx")
onnx.checker.check_model(proto)
print("opset:", {imp.domain or "ai.onnx": imp.version for imp in proto.opset_import}.get("ai.onnx"))
print("input shape:", [d.dim_param or d.dim_value for d in proto.graph.input[0].type.tensor_type.shape.dim])

session = ort.InferenceSession("classifier.onnx", providers=["CPUExecutionProvider"])
x = torch.randn(5, 4)
(onnx_out,) = session.run(["logits"], {"features": x.numpy()})
with torch.no_grad():
    torch_out = model(x).numpy()
print("max abs difference < 1e-5:", float(np.abs(onnx_out - torch_out).max()) < 1e-5)

# The TorchScript-based exporter of older tutorials (opset_version=11 and friends) still exists but warns.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.onnx.export(model, example, "legacy.onnx", dynamo=False, opset_version=11)
for message in sorted({f"{w.category.__name__}: {w.message}" for w in caught}):
    print(message)
