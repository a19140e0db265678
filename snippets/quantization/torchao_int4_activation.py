"""The newer int4-weight configs with quantized activations, tried on a CPU; the one that runs here replaces weights."""

import copy

import torch
from torch import nn
from torchao.prototype.quantization.int4 import Int8DynamicActivationInt4WeightConfig
from torchao.quantization import (
    Float8DynamicActivationInt4WeightConfig,
    Int8DynamicActivationIntxWeightConfig,
    quantize_,
)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 64)).to(torch.bfloat16).eval()
x = torch.randn(8, 256, dtype=torch.bfloat16)
with torch.no_grad():
    reference = model(x)

configs = [
    Float8DynamicActivationInt4WeightConfig(),  # float8 activations, int4 weights: GPU kernels
    Int8DynamicActivationInt4WeightConfig(),  # int8 activations, packed int4 weights: a CPU kernel
    Int8DynamicActivationIntxWeightConfig(weight_dtype=torch.int4),  # int8 activations, int4 values in int8
]
for config in configs:
    quantized = copy.deepcopy(model)
    try:
        quantize_(quantized, config)
    except (ImportError, AssertionError) as error:
        print(f"{type(config).__name__}:\n  {type(error).__name__}: {error}")
        continue
    with torch.no_grad():
        error = ((quantized(x) - reference).norm() / reference.norm()).item()
    print(f"{type(config).__name__}:\n  weights {[type(m.weight).__name__ for m in quantized if isinstance(m, nn.Linear)]}")
    print(f"  relative output error below 20 %: {error < 0.2}")
print("da8w4_linear_cpu has a CPU kernel in this torchao:", "CPU" in torch._C._dispatch_dump("torchao::da8w4_linear_cpu"))
