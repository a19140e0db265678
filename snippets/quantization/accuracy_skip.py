import copy

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torchao.quantization import FqnToConfig, Int8DynamicActivationInt8WeightConfig, IntxWeightOnlyConfig, quantize_
from torchao.quantization.granularity import PerGroup

from reference_impl.quantization import replaced_modules, state_dict_bytes

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


def linear_except(m, keep_float):
    """A filter_fn for quantize_: every nn.Linear except the named ones. A name not in m raises."""
    linears = [name for name, module in m.named_modules() if isinstance(module, nn.Linear)]
    unknown = sorted(set(keep_float) - set(linears))
    if unknown:
        raise ValueError(f"no Linear named {unknown} in the model; its Linear layers are {linears}")
    return lambda module, fqn: isinstance(module, nn.Linear) and fqn not in keep_float


int4 = IntxWeightOnlyConfig(weight_dtype=torch.int4, granularity=PerGroup(32))
int8 = Int8DynamicActivationInt8WeightConfig()

skipped = copy.deepcopy(model)
quantize_(skipped, int4, filter_fn=linear_except(model, {"4"}))
replaced = replaced_modules(model, skipped)
still_float = [name for name, module in skipped.named_modules() if isinstance(module, nn.Linear) and name not in replaced]
for name, (before, after) in replaced.items():
    print(f"quantized    {name}: {after}")
print(f"still float  {still_float}: {[type(skipped.get_submodule(n).weight).__name__ for n in still_float]}")
if still_float != ["4"]:  # prove the skip before any figure
    raise RuntimeError(f"expected only layer 4 to stay float, got {still_float}")

choices = {  # each one quantizes a copy of the model in place
    "float32": lambda m: None,
    "int8 dynamic, every Linear": lambda m: quantize_(m, int8),
    "int4, every Linear": lambda m: quantize_(m, int4),
    "int4, layer 4 kept float32": lambda m: quantize_(m, int4, filter_fn=linear_except(m, {"4"})),
    "int4, layer 4 in int8": lambda m: quantize_(m, FqnToConfig({"0": int4, "2": int4, "4": int8}), filter_fn=None),
}
print(f"{'choice':28} {'quantized':10} {'SQNR dB':>7} {'accuracy':>8} {'bytes':>6}")
for label, apply in choices.items():
    candidate = copy.deepcopy(model)
    apply(candidate)
    quantized_layers = ",".join(replaced_modules(model, candidate)) or "-"
    with torch.no_grad():
        out = candidate(x_test)
    db = f"{sqnr(reference, out):.1f}" if quantized_layers != "-" else "-"
    print(f"{label:28} {quantized_layers:10} {db:>7} {accuracy(candidate):8.3f} {state_dict_bytes(candidate):6,}")

# A typo in a name to skip is not an error for quantize_: every layer is quantized, silently.
typo = copy.deepcopy(model)
quantize_(typo, int4, filter_fn=lambda module, fqn: isinstance(module, nn.Linear) and fqn != "fc3")
print("skip 'fc3' by hand, quantized:", list(replaced_modules(model, typo)))
# With FqnToConfig, the same typo quantizes nothing, silently.
typo = copy.deepcopy(model)
quantize_(typo, FqnToConfig({"fc3": int4}), filter_fn=None)
print("FqnToConfig({'fc3': ...}), quantized:", list(replaced_modules(model, typo)))
try:  # FqnToConfig needs filter_fn=None: the default filter_fn counts as a custom one
    quantize_(copy.deepcopy(model), FqnToConfig({"4": int8}))
except ValueError as error:
    print(type(error).__name__, error)
try:  # linear_except turns the typo into an error
    linear_except(model, {"fc3"})
except ValueError as error:
    print(type(error).__name__, error)
