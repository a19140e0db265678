import torch

# Scale and 4-bit float formats for MX / NVFP4 (block-scaled) matmuls
for dtype in (torch.float8_e8m0fnu, torch.float4_e2m1fn_x2):
    print(f"{str(dtype):24} itemsize {dtype.itemsize}  is_floating_point {dtype.is_floating_point}")
# float8_e8m0fnu is an exponent only: powers of two, used as block scales
scales = torch.tensor([0.25, 1.0, 3.0, 1024.0]).to(torch.float8_e8m0fnu)
print("float8_e8m0fnu of [0.25, 1, 3, 1024]:", scales.float().tolist())

# Sub-byte integer dtypes: names that torchao's tensor subclasses use to say what they store
names = [f"{sign}int{bits}" for sign in ("", "u") for bits in range(1, 8)]
print("sub-byte dtypes:", " ".join(n for n in names if isinstance(getattr(torch, n, None), torch.dtype)))
try:
    torch.tensor([1, 2, 3], dtype=torch.int4)
except (RuntimeError, TypeError) as error:
    print(type(error).__name__, str(error).splitlines()[0])
