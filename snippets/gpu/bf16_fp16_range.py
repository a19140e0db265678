import torch

from reference_impl.storage import float32_to_bfloat16, float32_to_float16

print(f"{'':9} {'max':>10} {'smallest normal':>16} {'eps':>10}")
for dtype in (torch.float16, torch.bfloat16, torch.float32):
    info = torch.finfo(dtype)
    print(f"{str(dtype).removeprefix('torch.'):9} {info.max:10.3g} {info.smallest_normal:16.3g} {info.eps:10.3g}")

# Values a training step meets: a large activation, a small gradient, a tiny one.
x = torch.tensor([70000.0, 1e-6, 1e-8])
print()
print("float32: ", x.tolist())
print("float16: ", float32_to_float16(x).float().tolist())
print("bfloat16:", float32_to_bfloat16(x).float().tolist())

# What each format costs in precision: relative rounding error on a million values
# (leaving out those below 1e-3, well clear of float16's subnormals, which start below 6.1e-05).
torch.manual_seed(0)
values = torch.randn(1_000_000)
values = values[values.abs() > 1e-3]
print()
for name, rounded in [("float16", float32_to_float16(values).float()), ("bfloat16", float32_to_bfloat16(values).float())]:
    error = ((rounded - values).abs() / values.abs()).max().item()
    print(f"largest relative rounding error, {name:8}: {error:.2e} (half of eps: {torch.finfo(getattr(torch, name)).eps / 2:.2e})")
