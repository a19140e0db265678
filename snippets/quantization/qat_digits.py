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
model = nn.Sequential(QuantStub(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10), DeQuantStub())


def train(m, steps):
    opt = torch.optim.Adam(m.parameters(), lr=0.01)
    for step in range(steps):
        loss = nn.functional.cross_entropy(m(x_train), y_train)
        opt.zero_grad()
        loss.backward()
        opt.step()


def accuracy(m):
    with torch.no_grad():
        return (m.eval()(x_test).argmax(1) == y_test).float().mean().item()


def public_name(module):
    """torch.ao.nn.quantized.modules.linear.Linear -> torch.ao.nn.quantized.Linear"""
    parts = type(module).__module__.split(".")
    if "modules" in parts:
        parts = parts[: parts.index("modules")]
    return ".".join(parts + [type(module).__name__])


train(model, 100)  # 1. ordinary float training
print(f"float32 accuracy            {accuracy(model):.3f}")

with warnings.catch_warnings():
    # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page),
    # and the x86 qconfig's reduce_range=True asks for quant_min/quant_max instead.
    warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    warnings.filterwarnings("ignore", message="Please use quant_min and quant_max", category=UserWarning)
    torch.backends.quantized.engine = "x86"
    try:
        torch.ao.quantization.prepare_qat(model.eval())
    except AssertionError as err:
        print(type(err).__name__, err)
    model.train()
    model = torch.ao.quantization.fuse_modules_qat(model, [["1", "2"]])
    model.qconfig = torch.ao.quantization.get_default_qat_qconfig("x86")
    qat = torch.ao.quantization.prepare_qat(model)  # 2. fake-quantize weights and activations
    print("after prepare_qat:", public_name(qat[1]))
    train(qat, 30)  # 3. fine-tune: the forward pass sees the rounding, gradients pass straight through
    int8 = torch.ao.quantization.convert(qat.eval())  # 4. real int8 modules
require_quantized(model, int8)  # raises if no module was replaced, before any accuracy figure
print(f"int8 after QAT accuracy     {accuracy(int8):.3f}")
print("final module:", public_name(int8[1]))
