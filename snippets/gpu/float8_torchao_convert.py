import torch
from torch import nn
from torchao.float8 import convert_to_float8_training

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 256))
convert_to_float8_training(model)  # swaps every nn.Linear for a Float8Linear, in place
print([type(layer).__name__ for layer in model])

# The numerics run on a CPU too (slowly): the three matmuls of each layer use float8.
x = torch.randn(32, 256)
model(x).square().mean().backward()
print("weights stay", model[0].weight.dtype, "- gradient computed:", model[0].weight.grad is not None)
