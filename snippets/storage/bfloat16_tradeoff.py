import torch

print(f"{'dtype':15} {'bits':>4} {'eps':>10} {'max':>12} {'smallest normal':>16}")
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    fi = torch.finfo(dtype)
    print(f"{str(dtype):15} {fi.bits:>4} {fi.eps:>10.3g} {fi.max:>12.4g} {fi.smallest_normal:>16.4g}")

x = torch.tensor([1.23, 1.001, 70000.0, 1e-30])
print("float16: ", x.half().tolist())
print("bfloat16:", x.bfloat16().tolist())
