import torch

x, y = torch.randn(64, 16, generator=torch.Generator().manual_seed(0)), torch.zeros(64, 1)


def make_model(head_scale=1.0):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1))
    with torch.no_grad():
        model[2].weight.mul_(head_scale)
    return model


def gradient_norm(grads):
    return sum(g.pow(2).sum() for g in grads).sqrt()


def penalty_step(model, optimizer, scaler, scale_first=True, unscale=True):
    optimizer.zero_grad()
    params = list(model.parameters())
    with torch.autocast("cpu", dtype=torch.float16):
        loss = torch.nn.functional.mse_loss(model(x), y)
    # 1. Gradients of the *scaled* loss, kept in the graph (create_graph=True) for the penalty.
    outputs = scaler.scale(loss) if scale_first else loss
    grads = torch.autograd.grad(outputs, params, create_graph=True)
    # 2. Unscale them by hand: they belong to no optimizer, so scaler.unscale_ cannot do it.
    if scale_first and unscale:
        inv_scale = 1.0 / scaler.get_scale()
        grads = [g * inv_scale for g in grads]
    # 3. The penalty is part of the forward computation: inside autocast.
    with torch.autocast("cpu", dtype=torch.float16):
        penalty = gradient_norm(grads)
        total = loss + penalty
    # 4. The usual backward on the scaled total, step and update.
    scaler.scale(total).backward()
    scaler.step(optimizer)
    scaler.update()
    return loss.item(), penalty.item(), grads


for title, kwargs in (("right", {}), ("penalty not unscaled", {"unscale": False})):
    model = make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    scaler = torch.amp.GradScaler("cpu")
    print(title)
    for step in range(4):
        loss, penalty, _ = penalty_step(model, optimizer, scaler, **kwargs)
        print(f"  step {step}: loss {loss:.3f}  penalty {penalty:.4g}  next scale {scaler.get_scale():.0f}")

# Small gradients (the first layer's, behind a head 10,000 times smaller): why scale before autograd.grad.
model = make_model(head_scale=1e-4)
first = model[0].weight
reference = torch.autograd.grad(torch.nn.functional.mse_loss(model(x), y), first)[0]  # float32, no autocast
for scale_first in (True, False):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.0)  # lr 0: look, do not train
    grad = penalty_step(model, optimizer, torch.amp.GradScaler("cpu"), scale_first=scale_first)[2][0]
    error = ((grad - reference).norm() / reference.norm()).item()
    label = "scaled loss:  " if scale_first else "unscaled loss:"
    print(f"autograd.grad of the {label} {int((grad == 0).sum())} of {grad.numel()} first-layer gradients "
          f"are zero, relative error below 1 %: {error < 0.01}")
