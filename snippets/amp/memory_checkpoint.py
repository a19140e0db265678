"""Activation checkpointing under bfloat16 autocast: activation memory saved, and the time it costs."""

import json
import tempfile
import time
import warnings
from pathlib import Path

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile
from torch.utils.checkpoint import checkpoint

warnings.simplefilter("error")
torch.set_num_threads(1)  # one thread: the process's CPU time is the time of the step
torch.manual_seed(0)
blocks = nn.ModuleList(nn.Sequential(nn.Linear(128, 512), nn.GELU(), nn.Linear(512, 128)) for _ in range(4))
x = torch.randn(1024, 128)


def step(use_checkpoint):
    h = x
    with torch.autocast("cpu", dtype=torch.bfloat16):
        for block in blocks:
            # use_reentrant=False: the variant PyTorch recommends (and warns when it is not given)
            h = checkpoint(block, h, use_reentrant=False) if use_checkpoint else block(h)
        loss = h.float().square().mean()
    loss.backward()
    blocks.zero_grad()


def activation_peak(use_checkpoint):
    """The largest size of the profiler's "activation" category during one step, in bytes."""
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True, record_shapes=True, with_stack=True) as prof:
        step(use_checkpoint)
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="`export_memory_timeline` is deprecated", category=FutureWarning)
        path = Path(folder) / "timeline.json"
        prof.export_memory_timeline(str(path), device="cpu")
        _, sizes = json.loads(path.read_text())
    return max(row[5] for row in sizes)  # column 5: activations


def cpu_seconds(use_checkpoint, steps=5):
    """CPU time of a few steps: unlike the wall clock, it does not count other programs' work."""
    start = time.process_time()
    for _ in range(steps):
        step(use_checkpoint)
    return time.process_time() - start


for use_checkpoint in (False, True):
    step(use_checkpoint)  # warm-up
    label = "checkpointed" if use_checkpoint else "plain"
    print(f"{label:12} activations {activation_peak(use_checkpoint) / 2**20:5.2f} MiB")
ratios = sorted(cpu_seconds(True) / cpu_seconds(False) for _ in range(5))  # alternating rounds
print(f"checkpointed step: {ratios[2]:.2f}x the CPU time of the plain one (median of 5 rounds)")
