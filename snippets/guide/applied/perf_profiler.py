"""The profiler answers "where does the time go", not "how long does it take"."""

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function, schedule

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10)).eval()
x = torch.randn(32, 256)

# CPU activity only: this model runs on the CPU. For a model on a GPU, add
# ProfilerActivity.CUDA (see "Measuring on a GPU"); asking for it here, on a
# machine with a GPU, loads CUPTI for nothing and changes what is recorded.
activities = [ProfilerActivity.CPU]

# skip 1 step, warm up for 1, record 3; prof.step() marks the end of each step
with profile(activities=activities, schedule=schedule(wait=1, warmup=1, active=3)) as prof:
    for _ in range(5):
        with record_function("forward"), torch.inference_mode():
            model(x)
        prof.step()

events = prof.key_averages()
# Counts are deterministic; times are not, so this page prints only names and counts.
for event in sorted(events, key=lambda e: e.key):
    if event.key in {"forward", "aten::linear", "aten::addmm", "aten::relu"}:
        print(f"{event.key:14} calls: {event.count}")
# In your own runs, read the times too:
# print(events.table(sort_by="self_cpu_time_total", row_limit=10))
