import copy

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig, quantize_

from reference_impl.quantization import compare_models, replaced_modules

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


def accuracy(m):
    with torch.no_grad():
        return (m(x_test).argmax(1) == y_test).float().mean().item()


print(f"float32 accuracy {accuracy(model):.3f}")
for config in (Int8DynamicActivationInt8WeightConfig(), Int8WeightOnlyConfig()):
    quantized = copy.deepcopy(model)
    quantize_(quantized, config)  # in place: swaps each Linear's weight for an int8 tensor subclass
    report = compare_models(model, quantized, x_test)
    print(f"{type(config).__name__}: accuracy {accuracy(quantized):.3f}, "
          f"weight {type(quantized[0].weight).__name__}, "
          f"{report.size_ratio:.2f}x smaller, relative L2 {report.rel_l2:.1e}")

# Recurrent layers are left alone: only the Linear inside is quantized.
rnn_model = nn.Sequential(nn.RNNCell(8, 16), nn.Linear(16, 4)).eval()
before = copy.deepcopy(rnn_model)
quantize_(rnn_model, Int8DynamicActivationInt8WeightConfig())
print("replaced:", sorted(replaced_modules(before, rnn_model)), "| RNNCell weight_ih:", type(rnn_model[0].weight_ih).__name__)
