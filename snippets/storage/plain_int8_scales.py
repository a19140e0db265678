import torch
from torch import nn

torch.manual_seed(0)
layer = nn.Linear(512, 256)
x = torch.randn(8, 512)
weight = layer.weight.detach()  # float32, 256 x 512

# int8 values plus one float32 scale per output row: no quantized dtype needed, no warning.
scale = weight.abs().amax(dim=1, keepdim=True) / 127
w_int8 = torch.round(weight / scale).clamp(-127, 127).to(torch.int8)

with torch.no_grad():
    y_ref = layer(x)
    y_int8 = (x @ w_int8.float().T) * scale.T + layer.bias  # dequantize on the fly, bias stays float
rel = ((y_int8 - y_ref).norm() / y_ref.norm()).item()

float_bytes = weight.untyped_storage().nbytes()
int8_bytes = w_int8.untyped_storage().nbytes() + scale.untyped_storage().nbytes()
print(f"float32 weight: {float_bytes} bytes; int8 + scales: {int8_bytes} bytes ({float_bytes / int8_bytes:.2f}x smaller)")
print(f"relative L2 error of the output: {rel:.2%}")
