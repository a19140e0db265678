import warnings

import torch
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, quantize_

from reference_impl.quantization import replaced_modules, state_dict_bytes


class Linear(nn.Linear):
    """A model's own Linear, as Whisper defines one: the weight follows the input's dtype."""

    def forward(self, x):
        bias = None if self.bias is None else self.bias.to(x.dtype)
        return nn.functional.linear(x, self.weight.to(x.dtype), bias)


def make_model():
    torch.manual_seed(0)
    return nn.Sequential(Linear(256, 256), nn.ReLU(), Linear(256, 10)).eval()


def quantize_dynamic(model, spec, **kwargs):
    with warnings.catch_warnings():
        # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page).
        warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
        return torch.ao.quantization.quantize_dynamic(model, spec, dtype=torch.qint8, **kwargs)


def report(label, model):
    layers = [f"{type(m).__module__}.{type(m).__name__}" for m in (model[0], model[2])]
    size = state_dict_bytes(model) / 1024
    print(f"{label}: {len(replaced_modules(make_model(), model))} replaced, {size:.0f} KiB, {layers}")


report("float model         ", make_model())
# quantize_dynamic looks up each module's exact type: a subclass of nn.Linear is not nn.Linear.
report("{nn.Linear}         ", quantize_dynamic(make_model(), {nn.Linear}))
# Naming the subclass gives it a qconfig, but the default mapping has no int8 module for it.
report("{nn.Linear, Linear} ", quantize_dynamic(make_model(), {nn.Linear, Linear}))
# A mapping for it reaches from_float, which accepts nn.Linear itself only.
dynamic_linear = torch.ao.nn.quantized.dynamic.Linear
try:
    quantize_dynamic(make_model(), {Linear}, mapping={Linear: dynamic_linear})
except AssertionError as err:
    print(type(err).__name__, str(err).split(", got")[0])

# What works with torch.ao: make them plain nn.Linear first. Here that is exact, since the
# subclass's forward is nn.Linear's for a float32 input.
model = make_model()
for name, layer in model.named_children():
    if isinstance(layer, nn.Linear):
        plain = nn.Linear(layer.in_features, layer.out_features)
        plain.load_state_dict(layer.state_dict())
        setattr(model, name, plain)
report("plain, {nn.Linear}  ", quantize_dynamic(model, {nn.Linear}))

# torchao's quantize_ selects layers with isinstance(module, nn.Linear): the subclass is included.
model = make_model()
quantize_(model, Int8DynamicActivationInt8WeightConfig())
print("torchao weights:", [type(model[i].weight).__name__ for i in (0, 2)])
x = torch.randn(32, 256)
with torch.no_grad():
    ref, out = make_model()(x), model(x)
print(f"torchao int8: relative L2 error vs float {((out - ref).norm() / ref.norm()).item():.3f}")
