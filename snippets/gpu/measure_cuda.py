import time

import torch

a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
flops = 2 * 8192**3
for _ in range(3):  # warm-up: CUDA context, cuBLAS handle, kernel selection
    a @ b
torch.cuda.synchronize()

# Wrong: the matmul is only queued; perf_counter measures the launch, not the work.
start = time.perf_counter()
c = a @ b
launch = time.perf_counter() - start
torch.cuda.synchronize()
print(f"without synchronize: {launch * 1e3:.3f} ms -> {flops / launch / 1e12:,.0f} TFLOP/s")

# Right: CUDA events are recorded on the stream, between the kernels; wait before reading.
begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
begin.record()
for _ in range(20):
    c = a @ b
end.record()
torch.cuda.synchronize()
per_matmul = begin.elapsed_time(end) / 20 / 1e3
print(f"with CUDA events:    {per_matmul * 1e3:.3f} ms -> {flops / per_matmul / 1e12:,.0f} TFLOP/s")

# Peak memory of one step: reset the counter, run, read the high-water mark.
torch.cuda.reset_peak_memory_stats()
c = a @ b
torch.cuda.synchronize()
print(f"peak memory: {torch.cuda.max_memory_allocated() / 2**20:,.0f} MiB")
