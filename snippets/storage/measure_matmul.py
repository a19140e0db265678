import platform

import torch
from torch.utils import benchmark

torch.set_num_threads(1)
a = torch.randn(512, 512)
b = torch.randn(512, 512)
print(platform.processor() or platform.machine(), "torch", torch.__version__, "threads", torch.get_num_threads())

times = {}
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    x, y = a.to(dtype), b.to(dtype)
    timer = benchmark.Timer("x @ y", globals={"x": x, "y": y})
    times[dtype] = timer.blocked_autorange(min_run_time=0.3).median
for dtype, seconds in times.items():
    print(f"{str(dtype):15} {seconds * 1e3:8.3f} ms   speed vs float32: {times[torch.float32] / seconds:.2f}x")
