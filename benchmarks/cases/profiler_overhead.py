"""What a ``benchmark_model`` common in older blog posts measures: the model under the profiler.

A common mistake is to time the loop *inside* ``torch.profiler.profile(record_shapes=True)``,
so the time includes recording every operator, and the post-processing when the
profiler exits. This case times the same small model both ways, alternating
rounds: directly (what a benchmark should time) and under the profiler.

``acc_events=True``: torch 2.10 to 2.12 warn on every profiler that events are cleared at the end of
each cycle unless it is set (a ``UserWarning``, an error where warnings are errors); each profiler
here records one cycle, so the flag changes nothing else (2.13 no longer warns).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns

__all__ = ["run"]


class SimpleNet(nn.Module):
    """The three-layer MLP of such posts (784-128-128-10 with dropout)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(784, 128)
        self.fc2 = nn.Linear(128, 128)
        self.fc3 = nn.Linear(128, 10)
        self.dropout = nn.Dropout(0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.fc1(x))
        x = self.dropout(x)
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


_FRESH = """
import sys, time, torch
from torch.profiler import ProfilerActivity, profile
from benchmarks.cases.profiler_overhead import SimpleNet
torch.set_num_threads(1)
torch.manual_seed(0)
device = sys.argv[1]
model = SimpleNet().to(device).eval()
batches = [torch.randn(64, 784, device=device) for _ in range(20)]
activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
with torch.no_grad():
    for x in batches:
        model(x)
start = time.perf_counter()
with profile(activities=activities, record_shapes=True, acc_events=True):
    with torch.no_grad():
        for x in batches:
            model(x)
if device == "cuda":
    torch.cuda.synchronize()
print(time.perf_counter() - start)
"""


def _first_profiled_pass_in_fresh_process(device: str) -> float | None:
    """Seconds of the first profiled pass in a new Python process (None if it failed)."""
    root = str(Path(__file__).resolve().parents[2])  # the repository root: holds benchmarks/ and reference_impl/
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _FRESH, device], capture_output=True, text=True, timeout=300, check=True, env=env
        )
        return float(proc.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        return None


def run(cfg: BenchConfig) -> CaseResult:
    """Time 20 batches of 64 directly and under the profiler (the way such posts do it).

    Args:
        cfg: The benchmark settings.

    Returns:
        The ``profiler_overhead`` case.
    """
    torch.manual_seed(0)
    model = SimpleNet().to(cfg.device).eval()
    batches = [torch.randn(64, 784, device=cfg.device) for _ in range(20)]
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cfg.device == "cuda" else [])

    def direct():
        with torch.no_grad():
            for x in batches:
                model(x)

    def under_profiler():
        with profile(activities=activities, record_shapes=True, acc_events=True):
            with torch.no_grad():
                for x in batches:
                    model(x)

    # Such posts run the profiler once, in a fresh process: that single pass pays the
    # profiler's start-up too. Measure it where nothing has started the profiler yet.
    first_pass = _first_profiled_pass_in_fresh_process(cfg.device)

    c = cfg.compare(("timed directly", direct), {"under the profiler": under_profiler})["under the profiler"]
    result = CaseResult(
        "profiler_overhead",
        "Timing a model directly vs inside torch.profiler (a common benchmark_model)",
        [Column("what", "col.what_timed"), *timed_columns("col.direct_ms", "col.profiled_ms")],
    )
    result.add_comparison(Msg("label.under_profiler"), c)
    result.rows.append(
        {"what": Msg("label.profiled_loop", batches=20, batch=64, mlp="784-128-128-10"), **comparison_cells(c)}
    )
    if first_pass is None:
        result.notes.append(Msg("note.no_fresh_pass"))
    else:
        result.rows.append(
            {
                "what": Msg("label.first_profiled_pass"),
                "baseline_ms": c.baseline_s * 1e3,
                "variant_ms": first_pass * 1e3,
                "ratio": c.baseline_s / first_pass,
                "verdict": Msg("verdict.one_measurement", ratio=first_pass / c.baseline_s),
                "spread": Msg("spread.single_pass"),
            }
        )
    result.notes += [Msg("note.profiler_measures_profiler"), Msg("note.profiler_first_pass")]
    return result
