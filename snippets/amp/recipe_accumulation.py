import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(10, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
x, y = torch.randn(64, 10), torch.randn(64, 1)
accumulate = 4  # 4 micro-batches of 16 make one effective batch of 64


def full_batch_grads():
    # The float32 gradient of the whole batch: what the accumulated gradient must equal.
    model.zero_grad()
    torch.nn.functional.mse_loss(model(x), y).backward()
    return [p.grad.clone() for p in model.parameters()]


def close_to(reference):
    grads = torch.cat([p.grad.flatten() for p in model.parameters()])
    ref = torch.cat([g.flatten() for g in reference])
    return ((grads - ref).norm() / ref.norm()).item() < 1e-2


def accumulate_grads(optimizer, scaler, wrong=None):
    optimizer.zero_grad()
    for micro_x, micro_y in zip(x.chunk(accumulate), y.chunk(accumulate)):
        with torch.autocast("cpu", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(micro_x), micro_y) / accumulate
        scaler.scale(loss).backward()  # the scale stays the same for all micro-batches
        if wrong == "update":
            scaler.update()  # a common mistake: update() after every micro-batch
        if wrong == "unscale":
            scaler.unscale_(optimizer)  # a common mistake: unscale_ (to clip) every micro-batch
        if wrong == "unscale+update":
            scaler.unscale_(optimizer)  # ...and update() to get rid of the error
            scaler.update()
    if wrong != "unscale+update":
        scaler.unscale_(optimizer)  # once per effective batch, after the last backward()


reference = full_batch_grads()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

scaler = torch.amp.GradScaler("cpu")  # one scaler for the whole run
accumulate_grads(optimizer, scaler)
print("unscaled once per effective batch, equals the full-batch gradient:", close_to(reference))
norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)  # true gradients: clip here
scaler.step(optimizer)  # step and update only at the boundary of the effective batch
scaler.update()
print(f"gradient norm before clipping {norm:.2f}, scale {scaler.get_scale():.0f}")

reference = full_batch_grads()  # the model has moved: a new reference
for wrong in ("update", "unscale"):
    try:
        accumulate_grads(optimizer, torch.amp.GradScaler("cpu"), wrong)
    except (AssertionError, RuntimeError) as err:
        print(f"{wrong} every micro-batch -> {type(err).__name__}: {err}")

accumulate_grads(optimizer, torch.amp.GradScaler("cpu"), "unscale+update")
print("unscale_ and update every micro-batch, equals the full-batch gradient:", close_to(reference))
last = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
with torch.autocast("cpu", dtype=torch.float16):
    (torch.nn.functional.mse_loss(model(x[-16:]), y[-16:]) / accumulate).backward()
print("...it equals the last micro-batch's gradient alone:", close_to(last))
