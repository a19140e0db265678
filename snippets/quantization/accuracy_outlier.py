import copy

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, quantize_

from reference_impl.quantization import replaced_modules

torch.set_num_threads(1)  # tiny model: one thread is faster than two fighting over small ops
torch.manual_seed(0)
digits = load_digits()
x = torch.tensor(digits.data / 16.0, dtype=torch.float32)
y = torch.tensor(digits.target)
x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=0.3, random_state=0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(150):
    loss = nn.functional.cross_entropy(model(x_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()
with torch.no_grad():
    reference = model(x_test)


def sqnr(reference, approximation):
    """Signal-to-quantization-noise ratio in dB: 20 log10(||reference|| / ||reference - approximation||)."""
    return (20 * torch.log10(reference.norm() / (reference - approximation).norm())).item()


def accuracy(m):
    with torch.no_grad():
        return (m(x_test).argmax(1) == y_test).float().mean().item()


# Give hidden unit 5 an outlier: scale its row of layer 0 by 100 and divide its column of layer 2
# by 100. ReLU(100 z) = 100 ReLU(z), so the float model computes the same function.
outlier = copy.deepcopy(model)
with torch.no_grad():
    outlier[0].weight[5] *= 100
    outlier[0].bias[5] *= 100
    outlier[2].weight[:, 5] /= 100
    hidden = torch.relu(outlier[0](x_test))
    print(f"input of layer 2: largest |value| {hidden.abs().max():.0f}, median of the nonzero ones "
          f"{hidden[hidden > 0].median():.2f}")
    same = torch.allclose(outlier(x_test), reference, atol=1e-4)
    print(f"float32 with the outlier: same outputs (within 1e-4): {same}, test accuracy {accuracy(outlier):.3f}")

int8 = Int8DynamicActivationInt8WeightConfig()
for label, keep_float in (("every Linear", set()), ("layer 2 kept float32", {"2"})):
    for name, source in (("without outlier", model), ("with outlier", outlier)):
        candidate = copy.deepcopy(source)
        quantize_(candidate, int8, filter_fn=lambda module, fqn: isinstance(module, nn.Linear) and fqn not in keep_float)
        quantized = ",".join(replaced_modules(source, candidate))
        with torch.no_grad():
            db = sqnr(reference, candidate(x_test))
        print(f"int8 dynamic, {label:20} ({quantized:5}) {name:15}: "
              f"output SQNR {db:4.1f} dB, test accuracy {accuracy(candidate):.3f}")
