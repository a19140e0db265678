import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torchao.quantization import (
    Int8DynamicActivationInt8WeightConfig,
    Int8DynamicActivationIntxWeightConfig,
    quantize_,
)
from torchao.quantization.qat import QATConfig

torch.set_num_threads(1)  # tiny model: one thread is faster than two fighting over small ops
torch.manual_seed(0)
digits = load_digits()
x = torch.tensor(digits.data / 16.0, dtype=torch.float32)
y = torch.tensor(digits.target)
x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.3, random_state=0)
model = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 10))


def train(m, steps):
    opt = torch.optim.Adam(m.parameters(), lr=0.01)
    for _ in range(steps):
        loss = nn.functional.cross_entropy(m(x_train), y_train)
        opt.zero_grad()
        loss.backward()
        opt.step()


def accuracy(m):
    with torch.no_grad():
        return (m.eval()(x_test).argmax(1) == y_test).float().mean().item()


train(model, 100)  # 1. ordinary float training
print(f"float32 accuracy          {accuracy(model):.3f}")

# int8 activations (dynamic, per token) and int8 weights (per group of 32), simulated in training
base = Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int8)
quantize_(model, QATConfig(base, step="prepare"))  # 2. swap in fake-quantizing Linear layers
print("after prepare:", [type(m).__name__ for m in model])
train(model.train(), 30)  # 3. fine-tune: the forward pass sees the rounding
quantize_(model, QATConfig(base, step="convert"))  # 4. real quantized weights
weights = [type(m.weight).__name__ for m in model if isinstance(m, nn.Linear)]
if weights != ["IntxUnpackedToInt8Tensor"] * 2:  # prove the conversion before any accuracy figure
    raise RuntimeError(f"not quantized: {weights}")
print("after convert:", [type(m).__name__ for m in model], "weights:", weights[0])
print(f"int8 after QAT accuracy   {accuracy(model):.3f}")

# Not every base config has a QAT counterpart:
try:
    quantize_(nn.Sequential(nn.Linear(64, 32)), QATConfig(Int8DynamicActivationInt8WeightConfig(), step="prepare"))
except ValueError as error:
    print(type(error).__name__, str(error).split("(")[0])
