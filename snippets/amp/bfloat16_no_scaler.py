import torch

grad = torch.tensor([1e-8, 1e-20, 1e-30])
for dtype in (torch.float16, torch.bfloat16):
    print(f"{str(dtype):15}", "  ".join(f"{v:.3g}" for v in grad.to(dtype).tolist()))
print("smallest normal:", torch.finfo(torch.float16).tiny, torch.finfo(torch.bfloat16).tiny)

# A bfloat16 step needs no scaler: the same tiny loss as in the float16 example.
torch.manual_seed(0)
model = torch.nn.Linear(16, 1)
x = torch.randn(64, 16)
model(x).mean().mul(1e-6).backward()
reference = model.weight.grad.clone()
model.zero_grad()
with torch.autocast("cpu", dtype=torch.bfloat16):
    loss = model(x).float().mean() * 1e-6
loss.backward()  # no scaling
grad = model.weight.grad
error = ((grad - reference).norm() / reference.norm()).item()
print(f"bfloat16, no scaler: {int((grad == 0).sum())} of {grad.numel()} gradients are zero, relative error {error:.0e}")
