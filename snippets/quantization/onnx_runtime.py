import tempfile
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from onnxruntime.quantization.shape_inference import quant_pre_process
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

torch.set_num_threads(1)  # tiny model: one thread is faster than two fighting over small ops
torch.manual_seed(0)
digits = load_digits()
x = torch.tensor(digits.data / 16.0, dtype=torch.float32)
y = torch.tensor(digits.target)
x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.3, random_state=0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(150):
    loss = nn.functional.cross_entropy(model(x_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()

folder = Path(tempfile.mkdtemp())


def export(module, example, path):
    with warnings.catch_warnings():
        # torch 2.13's exporter copies the model with a pytree API it has itself deprecated.
        warnings.filterwarnings("ignore", message="`isinstance\\(treespec, LeafSpec\\)` is deprecated", category=FutureWarning)
        batch = torch.export.Dim("batch", min=2)
        torch.onnx.export(module, (example,), path, dynamo=True, verbose=False,
                          dynamic_shapes=({0: batch},), external_data=False)


export(model, x_test[:4], folder / "float.onnx")
try:  # straight to the quantizer: fails on the dynamo exporter's Gemm shapes
    quantize_dynamic(folder / "float.onnx", folder / "int8.onnx", weight_type=QuantType.QInt8)
except Exception as err:
    print(type(err).__name__, err)

quant_pre_process(folder / "float.onnx", folder / "prepared.onnx")  # shape inference + cleanup
quantize_dynamic(folder / "prepared.onnx", folder / "int8.onnx", weight_type=QuantType.QInt8)
int8_ops = sorted({node.op_type for node in onnx.load(folder / "int8.onnx").graph.node})
print("int8 graph ops:", int8_ops)
if not any("Integer" in op or "Quantize" in op for op in int8_ops):  # prove it before any error figure
    raise RuntimeError(f"the int8 graph has no integer or quantize ops: nothing was quantized ({int8_ops})")

sessions = {name: ort.InferenceSession(folder / f"{name}.onnx", providers=["CPUExecutionProvider"])
            for name in ("float", "int8")}
with torch.no_grad():
    torch_out = model(x_test).numpy()
outputs = {name: s.run(None, {s.get_inputs()[0].name: x_test.numpy()})[0] for name, s in sessions.items()}
print("ONNX float matches PyTorch within 1e-5:", bool(np.abs(outputs["float"] - torch_out).max() < 1e-5))
rel = np.linalg.norm(outputs["int8"] - torch_out) / np.linalg.norm(torch_out)
print(f"ONNX int8 vs PyTorch: relative L2 {rel:.3f}")
for name, out in (("PyTorch float", torch_out), *outputs.items()):
    print(f"{name:14} accuracy {(out.argmax(1) == y_test.numpy()).mean():.3f}")
# Add up the bytes of the weights stored in each file (the file itself also holds metadata, such as
# source paths recorded by the exporter, whose size depends on where the script lives).
weights = {name: sum(onnx.numpy_helper.to_array(t).nbytes for t in onnx.load(folder / f"{name}.onnx").graph.initializer)
           for name in ("float", "int8")}
print(f"weights stored: {weights['float']:,} -> {weights['int8']:,} bytes ({weights['float'] / weights['int8']:.2f}x smaller)")


# An RNNCell loop, exported the same way, does not get through the quantizer.
class ColumnRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.RNNCell(8, 32)
        self.head = nn.Linear(32, 10)

    def forward(self, img):
        h = torch.zeros(img.shape[0], 32)
        for column in img.transpose(1, 2).unbind(1):
            h = self.cell(column, h)
        return self.head(h)


export(ColumnRNN().eval(), torch.randn(4, 8, 8), folder / "rnn.onnx")
quant_pre_process(folder / "rnn.onnx", folder / "rnn_prepared.onnx")
try:
    quantize_dynamic(folder / "rnn_prepared.onnx", folder / "rnn_int8.onnx", weight_type=QuantType.QInt8)
except RuntimeError as err:
    print(type(err).__name__, str(err).split(". ")[0])
