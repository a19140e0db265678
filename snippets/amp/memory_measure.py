"""Measure a training step's memory on a CPU, by category, and compare it with the budget."""

import json
import tempfile
import tracemalloc
import warnings
from pathlib import Path

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

warnings.simplefilter("error")
MiB = 2**20

# tracemalloc sees only Python's own allocator: a 64 MiB tensor is invisible to it.
tracemalloc.start()
big = torch.zeros(16 * MiB)  # 16 Mi float32 values: 64 MiB
print(f"tracemalloc saw {tracemalloc.get_traced_memory()[1] / MiB:.1f} MiB of a {big.nbytes / MiB:.0f} MiB tensor")
tracemalloc.stop()
del big

# The columns of export_memory_timeline's sizes, after the time (torch 2.13's order).
CATEGORIES = ["weights", "optimizer states", "input", "temporary", "activations", "gradients", "autograd", "unknown"]


def measure(fused, autocast):
    """Each category's largest size during one training step, and the step's peak, in bytes."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=fused)
    x, y = torch.randn(256, 512), torch.randint(0, 10, (256,))

    def step():
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()

    step()  # the first step creates AdamW's states
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True, record_shapes=True, with_stack=True) as prof:
        step()
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        # Deprecated in torch 2.13 for a CUDA-only tool; on a CPU it is the one that sees every tensor.
        warnings.filterwarnings("ignore", message="`export_memory_timeline` is deprecated", category=FutureWarning)
        path = Path(folder) / "timeline.json"
        prof.export_memory_timeline(str(path), device="cpu")
        _, sizes = json.loads(path.read_text())
    largest = {name: max(row[i + 1] for row in sizes) for i, name in enumerate(CATEGORIES)}
    largest["peak of the step"] = max(sum(row) for row in sizes)
    # The same weights and states counted directly: the bytes of the storages behind them.
    tensors = [*model.parameters(), *(v for s in opt.state.values() for v in s.values())]
    storages = {t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for t in tensors}
    largest["counted"] = sum(storages.values())
    return sum(p.numel() for p in model.parameters()), largest


def budget(n_params, batch, widths, value_bytes, copy_bytes=0):
    """Weights, gradients and AdamW states in float32; activations: the hidden values backward keeps,
    plus autocast's 16-bit copies of the weights and of the input (copy_bytes 2, else 0)."""
    parts = {"weights": 4 * n_params, "gradients": 4 * n_params, "optimizer states": 8 * n_params}
    parts["activations"] = batch * sum(widths) * value_bytes + copy_bytes * (n_params + batch * 512)
    parts["peak of the step"] = sum(parts.values())
    return parts


n_params, plain = measure(fused=False, autocast=False)
_, fused = measure(fused=True, autocast=False)
_, amp = measure(fused=True, autocast=True)
fp32_budget = budget(n_params, 256, [1024, 1024], 4)
amp_budget = budget(n_params, 256, [1024, 1024], 2, copy_bytes=2)
print(f"parameters: {n_params:,}")
print(f"weights + states, counted from their storages: {plain['counted'] / MiB:.1f} MiB")
print("MiB              budget AdamW fused   budget  AMP")
rows = ["weights", "gradients", "optimizer states", "activations", "unknown", "peak of the step"]
for row in rows:
    cells = [fp32_budget.get(row), plain[row], fused[row], amp_budget.get(row), amp[row]]
    print(f"{row:16}" + "".join("      -" if c is None else f"{c / MiB:7.1f}" for c in cells))
