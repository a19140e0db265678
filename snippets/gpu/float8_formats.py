import torch

from reference_impl.storage import float8_to_float32

print(f"{'':14} {'bits':>4} {'max':>11} {'smallest normal':>16} {'smallest subnormal':>19} {'eps':>7}")
for dtype in (torch.float8_e4m3fn, torch.float8_e5m2, torch.float16, torch.bfloat16):
    info = torch.finfo(dtype)
    if dtype.itemsize == 1:  # bit pattern 0x01 is the smallest subnormal
        subnormal = float8_to_float32(torch.tensor([1], dtype=torch.uint8).view(dtype)).item()
    else:
        subnormal = torch.tensor([1], dtype=torch.int16).view(dtype).item()
    name = str(dtype).removeprefix("torch.")
    print(f"{name:14} {info.bits:4} {info.max:11.6g} {info.smallest_normal:16.3g} {subnormal:19.3g} {info.eps:7.3g}")
