# Times a small model twice: directly with torch.utils.benchmark, and the way older
# blog posts do it (wall clock around a loop inside torch.profiler.profile).
# The printed times depend on your machine, so the page shows no output for it.
import time

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile
from torch.utils import benchmark

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
batches = [torch.randn(64, 784) for _ in range(20)]


def run_model():
    with torch.no_grad():
        for x in batches:
            model(x)


# Right: warm up, one thread, repeat, take the median.
run_model()
timer = benchmark.Timer("run_model()", globals={"run_model": run_model}, num_threads=1)
direct = timer.blocked_autorange(min_run_time=0.5).median

# Timing inside the profiler: the wall clock includes the profiler recording every operator.
start = time.time()
with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    run_model()
profiled_way = time.time() - start

print(f"timed directly:       {direct * 1e3:8.2f} ms for 20 batches")
print(f"timed under profiler: {profiled_way * 1e3:8.2f} ms for 20 batches ({profiled_way / direct:.1f}x)")
