import warnings

import torch

x = torch.tensor([0.50, -1.20, 2.00, 0.80])  # activations
w = torch.tensor([0.30, 0.70, -0.40, 1.10])  # one row of weights
b = 0.25  # bias

# Symmetric int8 quantization: q = round(v / scale), scale = max|v| / 127.
sx = x.abs().max().item() / 127
sw = w.abs().max().item() / 127
xq = torch.round(x / sx).to(torch.int8)
wq = torch.round(w / sw).to(torch.int8)
print("xq:", xq.tolist(), f" sx={sx:.6f}")
print("wq:", wq.tolist(), f" sw={sw:.6f}")

# int8 x int8 products are summed in an int32 accumulator.
products = xq.to(torch.int32) * wq.to(torch.int32)
acc = products.sum(dtype=torch.int32)
print("products:", products.tolist(), " acc (int32):", acc.item())
# PyTorch's own int8 matrix multiply (a private op) also returns int32: the same accumulator.
print("torch._int_mm:", torch._int_mm(xq.view(1, -1), wq.view(-1, 1)))

# The bias is added inside the accumulator, so it is stored as int32 with scale sx * sw.
bias_scale = sx * sw
bias_q = torch.tensor(round(b / bias_scale), dtype=torch.int32)
print(f"bias scale = sx * sw = {bias_scale:.3e}  bias_q (int32) = {bias_q.item()}")

# This integer is what a qint32 bias tensor stores.
# torch 2.13 warns that the quantized dtypes are deprecated, once per process (torch 2.11
# does not); record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    bias_qint32 = torch.quantize_per_tensor(torch.tensor([b]), scale=bias_scale, zero_point=0, dtype=torch.qint32)
print("as a qint32 tensor:", bias_qint32.int_repr().tolist())

y_int32 = acc + bias_q
y = y_int32.item() * bias_scale  # one multiply turns the int32 result back into a real number
exact = torch.dot(x.double(), w.double()).item() + b
print(f"int8 kernel result: {y_int32.item()} * {bias_scale:.3e} = {y:.5f}")
print(f"float result:       {exact:.5f}   error {y - exact:+.5f}")

# Why 32 bits: the sum of many int8 products does not fit in 16 bits.
big = torch.full((1024,), 127, dtype=torch.int8)
wide = (big.to(torch.int32) * big.to(torch.int32)).sum(dtype=torch.int32).item()
narrow = (big.to(torch.int16) * big.to(torch.int16)).sum(dtype=torch.int16).item()
print(f"1024 products of 127*127: int32 sum {wide}, int16 sum {narrow} (wrapped around)")
