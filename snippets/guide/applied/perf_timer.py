"""Timing a model correctly with torch.utils.benchmark.Timer (prints timings: no checked output)."""

import torch
from torch import nn
from torch.utils import benchmark

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10)).eval()
x = torch.randn(32, 256)

timer = benchmark.Timer(
    stmt="with torch.inference_mode(): model(x)",
    globals={"torch": torch, "model": model, "x": x},
    num_threads=1,  # say how many threads you measure with
    label="MLP 256-512-10",
    sub_label="batch 32",
    description="float32",
)
measurement = timer.blocked_autorange(min_run_time=0.5)  # warms up, then repeats until 0.5 s is spent
print(measurement)  # median and IQR over the blocks, with the number of runs
print(f"median per call: {measurement.median * 1e6:.1f} us")
