import torch

f16 = torch.finfo(torch.float16)
print("max:", f16.max, " smallest normal:", f16.smallest_normal, " eps:", f16.eps)
print("smallest subnormal:", 2.0**-24)

# Rounding at the top: 65519 still rounds down to 65504, 65520 rounds to inf.
print(torch.tensor([65504.0, 65519.0, 65520.0, 1e5]).half())
# ... and at the bottom: subnormals lose precision, then values flush to zero.
print(torch.tensor([1e-4, 1e-6, 6e-8, 2e-8]).half())
# Arithmetic overflows too: 300 * 300 = 90000 > 65504.
a = torch.tensor(300.0, dtype=torch.float16)
print(a * a, (a.float() * a.float()))
