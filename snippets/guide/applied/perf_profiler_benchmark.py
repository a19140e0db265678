"""A benchmark_model common in older blog posts times the profiler, not the model: compared with Timer on the same model."""

import time
import warnings

import torch
import torch.profiler
from torch import nn
from torch.utils import benchmark
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
loader = DataLoader(TensorDataset(torch.randn(3200, 64), torch.zeros(3200)), batch_size=32)


def benchmark_model(model, data_loader, num_iterations=100):  # as such posts write it, unchanged in substance
    model.eval()
    for i, (data, _) in enumerate(data_loader):
        if i >= 10:
            break
        with torch.no_grad():
            _ = model(data)
    start_time = time.time()
    with torch.profiler.profile(
        # the common version also asks for ProfilerActivity.CUDA; on a machine without a GPU
        # that only adds the warning "CUDA is not available, disabling CUDA profiling"
        activities=[torch.profiler.ProfilerActivity.CPU],
        record_shapes=True,
    ) as prof:
        for i, (data, _) in enumerate(data_loader):
            if i >= num_iterations:
                break
            with torch.no_grad():
                _ = model(data)
    end_time = time.time()
    return {
        "total_time": end_time - start_time,
        "avg_time_per_batch": (end_time - start_time) / num_iterations,
        "profiler_trace": prof.key_averages().table(),
    }


with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    profiled_result = benchmark_model(model, loader)
for message in sorted({f"{w.category.__name__}: {w.message}" for w in caught}):
    print(message)

batch = next(iter(loader))[0]
timer = benchmark.Timer(
    stmt="with torch.no_grad(): model(batch)", globals={"torch": torch, "model": model, "batch": batch}, num_threads=1
)
model_only = timer.blocked_autorange(min_run_time=0.5).median
ratio = profiled_result["avg_time_per_batch"] / model_only
print("profiled per-batch time > 2 x the model's own time:", ratio > 2)
assert ratio > 2, ratio
