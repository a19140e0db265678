import copy

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, quantize_
from torchao.quantization.utils import compute_error

from reference_impl.quantization import require_quantized

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


def sqnr(reference, approximation):
    """Signal-to-quantization-noise ratio in dB: 20 log10(||reference|| / ||reference - approximation||)."""
    return (20 * torch.log10(reference.norm() / (reference - approximation).norm())).item()


def accuracy(m):
    with torch.no_grad():
        return (m(x_test).argmax(1) == y_test).float().mean().item()


def linear_outputs(m, inputs):
    """The output of every nn.Linear of m on inputs, by module name (recorded with forward hooks)."""
    outputs = {}
    hooks = [
        module.register_forward_hook(lambda module, args, out, name=name: outputs.update({name: out.detach()}))
        for name, module in m.named_modules()
        if isinstance(module, nn.Linear)
    ]
    with torch.no_grad():
        m(inputs)
    for hook in hooks:
        hook.remove()
    return outputs


quantized = copy.deepcopy(model)
quantize_(quantized, Int8DynamicActivationInt8WeightConfig())  # every nn.Linear: int8 weights and activations
require_quantized(model, quantized)  # raises if nothing was quantized, before any figure

reference, actual = linear_outputs(model, x_test), linear_outputs(quantized, x_test)
print("layer  shape      weight SQNR  output SQNR  (torchao compute_error)")
agree = []
for name, float_layer in model.named_children():
    if not isinstance(float_layer, nn.Linear):
        continue
    weight = sqnr(float_layer.weight.detach(), quantized.get_submodule(name).weight.dequantize())
    ours = sqnr(reference[name], actual[name])
    theirs = compute_error(reference[name], actual[name]).item()
    agree.append(abs(ours - theirs) < 1e-3)
    shape = "x".join(map(str, float_layer.weight.shape))
    print(f"{name:5}  {shape:9}  {weight:8.1f} dB  {ours:8.1f} dB  ({theirs:.1f} dB)")
print("our SQNR equals torchao's compute_error:", all(agree))
print(f"test accuracy: float32 {accuracy(model):.3f}, int8 {accuracy(quantized):.3f}")
