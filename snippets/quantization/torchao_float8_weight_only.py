import torch
from torch import nn
from torchao.quantization import Float8WeightOnlyConfig, quantize_

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256)).to(torch.bfloat16).eval()
x = torch.randn(8, 256, dtype=torch.bfloat16)
quantize_(model, Float8WeightOnlyConfig())
weight = model[0].weight
print("weight:", type(weight).__name__, "stored as", weight.qdata.dtype, "with one scale per row:", tuple(weight.scale.shape))

# The forward dequantizes the whole weight to bfloat16, then runs an ordinary bfloat16 matmul.
dequantized = weight.dequantize()
with torch.no_grad():
    out = model(x)
    by_hand = torch.matmul(x, dequantized.t()) + model[0].bias
print("output:", out.dtype, "| equal to matmul(x, dequantized weight):", torch.equal(out, by_hand))
print("float8 weight:", weight.qdata.nbytes, "bytes; bfloat16 copy made at each call:", dequantized.nbytes, "bytes")
