import torch
from torch import nn


class RMSNorm(nn.Module):  # hand-written, as in many models: squares its input
    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)


torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 256), RMSNorm(), nn.Linear(256, 10)
)
with torch.no_grad():
    model[2].weight.mul_(1e5)  # one layer whose outputs exceed float16's range (65504)
model = model.half().eval()

first_bad = []  # (name, what) of modules whose output has inf or NaN, in call order


def report(name):
    def hook(module, inputs, output):
        if not torch.isfinite(output).all():
            first_bad.append((name, f"{type(module).__name__}: {torch.isinf(output).sum().item()} inf, "
                                    f"{torch.isnan(output).sum().item()} NaN, "
                                    f"inputs finite: {all(torch.isfinite(i).all().item() for i in inputs)}"))
    return hook


handles = [m.register_forward_hook(report(n)) for n, m in model.named_modules() if n]
x = torch.randn(4, 64, dtype=torch.float16)
with torch.inference_mode():
    out = model(x)
for h in handles:
    h.remove()  # hooks stay until removed: remove them when done

print("output finite:", torch.isfinite(out).all().item())
for name, what in first_bad:
    print(f"  module {name!r}  {what}")
print("first module with inf/NaN:", first_bad[0][0] if first_bad else None)
with torch.inference_mode():  # the same model with float32's range: bfloat16
    print("bfloat16 output finite:", torch.isfinite(model.bfloat16()(x.bfloat16())).all().item())
