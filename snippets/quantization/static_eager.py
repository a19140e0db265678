import warnings

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torch.ao.quantization import DeQuantStub, QuantStub

from reference_impl.quantization import require_quantized

torch.set_num_threads(1)  # tiny model: one thread is faster than two fighting over small ops
torch.manual_seed(0)
digits = load_digits()
x = torch.tensor(digits.data / 16.0, dtype=torch.float32)
y = torch.tensor(digits.target)
x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.3, random_state=0)


class DigitsMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = QuantStub()  # float -> quint8 at the entrance
        self.fc1 = nn.Linear(64, 128)
        self.relu1 = nn.ReLU()
        self.fc2 = nn.Linear(128, 10)
        self.dequant = DeQuantStub()  # quint8 -> float at the exit

    def forward(self, x):
        return self.dequant(self.fc2(self.relu1(self.fc1(self.quant(x)))))


def public_name(module):
    """torch.ao.nn.quantized.modules.linear.Linear -> torch.ao.nn.quantized.Linear"""
    parts = type(module).__module__.split(".")
    if "modules" in parts:
        parts = parts[: parts.index("modules")]
    return ".".join(parts + [type(module).__name__])


model = DigitsMLP()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(150):
    loss = nn.functional.cross_entropy(model(x_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()

with warnings.catch_warnings():
    # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page),
    # and the x86 qconfig's reduce_range=True asks for quant_min/quant_max instead (see below).
    warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    warnings.filterwarnings("ignore", message="Please use quant_min and quant_max", category=UserWarning)
    torch.backends.quantized.engine = "x86"
    fused = torch.ao.quantization.fuse_modules(model, [["fc1", "relu1"]])  # Linear+ReLU -> one op
    fused.qconfig = torch.ao.quantization.get_default_qconfig("x86")
    prepared = torch.ao.quantization.prepare(fused)  # inserts observers
    with torch.no_grad():
        for batch in x_train[:512].split(64):  # calibration: run representative data
            prepared(batch)
    quantized = torch.ao.quantization.convert(prepared)  # observers -> scales, modules -> int8
require_quantized(model, quantized)  # raises if no module was replaced, before any accuracy figure
for name, module in quantized.named_children():
    print(f"{name:8} {public_name(module)}")


def accuracy(m):
    with torch.no_grad():
        return (m(x_test).argmax(1) == y_test).float().mean().item()


print(f"test accuracy  float32: {accuracy(model):.3f}   int8 static: {accuracy(quantized):.3f}")
