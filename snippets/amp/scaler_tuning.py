import math

import torch


def trace(steps=16, **scaler_options):
    """Train a small model in float16 autocast; return log2(scale) after each step and the skips."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.ReLU(), torch.nn.Linear(64, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    scaler = torch.amp.GradScaler("cpu", **scaler_options)
    x, y = torch.randn(64, 16), torch.randn(64, 1)
    scales, skipped = [], 0
    for _ in range(steps):
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(x), y)
        scaler.scale(loss).backward()
        before = scaler.get_scale()
        scaler.step(optimizer)
        scaler.update()
        skipped += scaler.get_scale() < before
        scales.append(int(math.log2(scaler.get_scale())))
    return scales, skipped


settings = {
    "default (65536, 2000, 0.5)": {},
    "init_scale=2**10": {"init_scale": 2.0**10},
    "init_scale=2**10, growth_interval=1": {"init_scale": 2.0**10, "growth_interval": 1},
    "... and backoff_factor=0.125": {"init_scale": 2.0**10, "growth_interval": 1, "backoff_factor": 0.125},
}
print("log2(scale) after each of 16 steps")
for name, options in settings.items():
    scales, skipped = trace(**options)
    print(f"{name:38} {' '.join(f'{s:2d}' for s in scales)}   skipped {skipped}")
