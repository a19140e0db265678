import torch
from torch import nn
from torchao.quantization import Int8WeightOnlyConfig, quantize_

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 256))
x = torch.randn(8, 512)
y_ref = model(x)

quantize_(model, Int8WeightOnlyConfig())  # replaces the weight by an int8 tensor subclass
weight = model[0].weight
print(type(weight).__name__, "reports dtype", weight.dtype, "shape", tuple(weight.shape))
inner, _ = weight.__tensor_flatten__()  # the plain tensors it is made of
for name in inner:
    part = getattr(weight, name)
    print(f"  {name:10} {str(part.dtype):14} {str(tuple(part.shape)):11}  {part.untyped_storage().nbytes()} bytes")
rel = ((model(x) - y_ref).norm() / y_ref.norm()).item()
print(f"relative L2 error of the output: {rel:.2%}")
