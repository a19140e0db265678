import torch

from reference_impl.storage import float32_to_float8

x = torch.tensor([448.0, 464.0, 465.0, 1000.0, 60000.0, 61440.0, float("inf"), float("nan")])
print(f"{'input':30}", x.tolist())
for dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
    name = str(dtype).removeprefix("torch.")
    print(f"{name + ', torch on ' + x.device.type:30}", x.to(dtype).float().tolist())
    print(f"{name + ', saturating':30}", float32_to_float8(x, dtype, saturate=True).float().tolist())
    print(f"{name + ', non-saturating':30}", float32_to_float8(x, dtype, saturate=False).float().tolist())
