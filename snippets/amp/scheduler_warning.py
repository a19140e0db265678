import warnings

import torch

torch.manual_seed(0)
model = torch.nn.Linear(8, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
scaler = torch.amp.GradScaler("cpu")  # default init_scale 65536: too large for this model at first
x, y = torch.randn(32, 8), torch.randn(32, 1)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")  # record every warning, even one seen before
    for step in range(4):
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(x), y)
        scaler.scale(loss).backward()
        scale = scaler.get_scale()
        scaler.step(optimizer)  # skipped when a gradient is inf/NaN
        scaler.update()  # a skipped step halves the scale
        skipped = scaler.get_scale() < scale
        scheduler.step()
        print(f"step {step}: optimizer step skipped {skipped}, next lr {scheduler.get_last_lr()[0]}")

for w in caught:  # zero, one or more warnings: never assume the first one exists
    print(f"{w.category.__name__}: {w.message}")
print("warnings:", len(caught))
