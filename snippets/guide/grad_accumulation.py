import torch
from torch import nn

torch.manual_seed(0)
x, y = torch.randn(32, 4), torch.randn(32, 1)


def grads(accum_steps):
    torch.manual_seed(1)
    model = nn.Linear(4, 1)
    model.zero_grad()
    for xb, yb in zip(x.chunk(accum_steps), y.chunk(accum_steps)):
        loss = nn.functional.mse_loss(model(xb), yb) / accum_steps  # scale so the sum is a mean
        loss.backward()  # adds into .grad
    return model.weight.grad


full = grads(1)  # one batch of 32
accum = grads(4)  # four micro-batches of 8, accumulated
print(torch.allclose(full, accum, atol=1e-6), (full - accum).abs().max().item() < 1e-6)

# Forgetting to zero: the second step's gradient is twice as large.
torch.manual_seed(1)
model = nn.Linear(4, 1)
for step in range(2):
    nn.functional.mse_loss(model(x), y).backward()
    print(f"step {step}: |grad| = {model.weight.grad.norm():.4f}")
