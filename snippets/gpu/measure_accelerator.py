import time

import torch

# One script for any accelerator PyTorch supports (CUDA, ROCm, Intel XPU, Apple MPS, ...) and for a CPU.
accelerator = torch.accelerator.current_accelerator(check_available=True)  # None unless one can be used
print("accelerator:", accelerator)
device = accelerator if accelerator is not None else torch.device("cpu")
a = torch.randn(1024, 1024, device=device)
b = torch.randn(1024, 1024, device=device)
for _ in range(3):  # warm-up
    a @ b

if torch.accelerator.is_available():
    # torch.Event is recorded on the current stream of the accelerator: device time between two points.
    begin, end = torch.Event(enable_timing=True), torch.Event(enable_timing=True)
    torch.accelerator.memory.reset_peak_memory_stats()
    begin.record()
    for _ in range(10):
        c = a @ b
    end.record()
    torch.accelerator.synchronize()  # wait for the device before reading the events
    peak = torch.accelerator.memory.max_memory_allocated()
    print(f"events: {begin.elapsed_time(end) / 10:.3f} ms per matmul, peak memory {peak / 2**20:,.0f} MiB")
else:
    # Nothing runs asynchronously on a CPU: the wall clock is right. The device calls say why they cannot run.
    checks = {
        "torch.accelerator.synchronize()": torch.accelerator.synchronize,
        "torch.accelerator.memory.max_memory_allocated()": torch.accelerator.memory.max_memory_allocated,
        "torch.Event(enable_timing=True).record()": lambda: torch.Event(enable_timing=True).record(),
    }
    for name, call in checks.items():
        try:
            call()
        except RuntimeError as error:
            print(f"{name}: RuntimeError: {error}")
    start = time.perf_counter()
    for _ in range(10):
        c = a @ b
    print(f"perf_counter: {(time.perf_counter() - start) / 10 * 1e3:.3f} ms per matmul")
