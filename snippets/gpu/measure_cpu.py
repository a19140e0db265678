import time

import torch
from torch.utils import benchmark

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(512, 2048), torch.nn.GELU(), torch.nn.Linear(2048, 512))
x = torch.randn(64, 512)

# Warm-up: the first calls pay for one-time work (memory allocation, kernel selection,
# and on a GPU the CUDA context and cuBLAS initialisation). Time only what comes after.
with torch.no_grad():
    start = time.perf_counter()
    model(x)
    first = time.perf_counter() - start
    for _ in range(5):
        model(x)
    times = []
    for _ in range(20):
        start = time.perf_counter()
        model(x)
        times.append(time.perf_counter() - start)
print(f"first call {first * 1e3:.2f} ms, median of 20 after warm-up {sorted(times)[10] * 1e3:.2f} ms")

# torch.utils.benchmark does the warm-up, the repetitions and (on a GPU) the synchronisation.
timer = benchmark.Timer(stmt="model(x)", globals={"model": model, "x": x}, num_threads=torch.get_num_threads())
with torch.no_grad():
    print(timer.blocked_autorange(min_run_time=0.5))
