import copy
import time

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torchao.quantization import IntxWeightOnlyConfig, quantize_
from torchao.quantization.granularity import PerGroup

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


def quantize_only(name, config):
    """A copy of the model with only the layer called `name` quantized (checked, not assumed)."""
    candidate = copy.deepcopy(model)
    quantize_(candidate, config, filter_fn=lambda module, fqn: fqn == name)
    if list(replaced_modules(model, candidate)) != [name]:
        raise RuntimeError(f"expected only {name!r} to be quantized, got {list(replaced_modules(model, candidate))}")
    return candidate


int4 = IntxWeightOnlyConfig(weight_dtype=torch.int4, granularity=PerGroup(32))  # 4-bit weights, 1 scale per 32
start = time.perf_counter()
layers = [name for name, module in model.named_modules() if isinstance(module, nn.Linear)]
results = []
for name in layers:  # quantize one layer at a time; everything else stays float32
    candidate = quantize_only(name, int4)
    with torch.no_grad():
        results.append((sqnr(reference, candidate(x_test)), accuracy(candidate), name))
seconds = time.perf_counter() - start
print(f"float32 test accuracy {accuracy(model):.3f}")
print("int4 on one layer only, most sensitive first:")
for output_sqnr, acc, name in sorted(results):
    print(f"  layer {name} {tuple(model.get_submodule(name).weight.shape)}: "
          f"model output SQNR {output_sqnr:4.1f} dB, test accuracy {acc:.3f}")
print(f"search: {len(layers)} quantized copies evaluated in {seconds:.2f} s")
