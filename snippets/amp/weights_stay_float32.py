import torch

torch.manual_seed(0)
model = torch.nn.Linear(8, 2)
x = torch.randn(16, 8)

with torch.autocast("cpu", dtype=torch.bfloat16):
    out = model(x)
out.float().sum().backward()
print("output:", out.dtype)
print("weight:", model.weight.dtype, "grad:", model.weight.grad.dtype)

# Why the weights stay float32: an optimizer update is tiny next to the weight.
weight, update = 1.0, 1e-4  # e.g. lr 1e-3 times a gradient of 0.1
for dtype in (torch.float32, torch.bfloat16, torch.float16):
    w = torch.tensor(weight, dtype=dtype)
    print(f"{str(dtype):15} 1.0 + 1e-4 = {(w + update).item():.6f}")
