import torch


def show(label, t):
    print(f"{label:16}", "  ".join(f"{v:.4g}" for v in t.tolist()))


# A gradient that float16 cannot hold: 1e-8 is below float16's smallest subnormal (6e-8).
grad = torch.tensor([1e-8, 3e-6, 1e-3])
show("float32:", grad)
show("float16:", grad.half())
scaled = (grad * 65536).half()  # what loss scaling does: multiply first, then go to float16
show("scaled float16:", scaled)
show("unscaled:", scaled.float() / 65536)

# The same in a real backward pass under float16 autocast (CPU): a small loss.
torch.manual_seed(0)
model = torch.nn.Linear(16, 1)
x = torch.randn(64, 16)
model(x).mean().mul(1e-6).backward()  # float32 reference
reference = model.weight.grad.clone()
for scale in (1.0, 65536.0):
    model.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = model(x).float().mean() * 1e-6  # float16 activations, tiny gradients
    (loss * scale).backward()
    grad = model.weight.grad / scale
    error = ((grad - reference).norm() / reference.norm()).item()
    print(f"scale {scale:>5.0f}: {int((grad == 0).sum())} of {grad.numel()} gradients are zero, relative error {error:.0e}")
