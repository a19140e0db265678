"""What the seed article's ``benchmark_model`` measured: the model under the profiler.

The article timed its loop *inside* ``torch.profiler.profile(record_shapes=True)``,
so the time includes recording every operator, and the post-processing when the
profiler exits. This case times the same small model both ways, alternating
rounds: directly (what a benchmark should time) and the article's way.
"""

from __future__ import annotations

import time

import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile

from reference_impl.bench.cases._fmt import timed_columns
from reference_impl.bench.config import BenchConfig
from reference_impl.bench.results import CaseResult, Column, comparison_cells

__all__ = ["run"]


class SimpleNet(nn.Module):
    """The seed article's three-layer MLP (784-128-128-10 with dropout)."""

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


def run(cfg: BenchConfig) -> CaseResult:
    """Time 20 batches of 64 directly and under the profiler (the seed's way).

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
        with profile(activities=activities, record_shapes=True):
            with torch.no_grad():
                for x in batches:
                    model(x)

    # The seed ran the profiler once: its single pass pays the profiler's start-up too.
    direct()
    start = time.perf_counter()
    under_profiler()
    first_pass = time.perf_counter() - start

    c = cfg.compare(("timed directly", direct), {"under the profiler": under_profiler})["under the profiler"]
    result = CaseResult(
        "profiler_overhead",
        "Timing a model directly vs inside torch.profiler (the seed's benchmark_model)",
        [Column("what", "what was timed"), *timed_columns("direct ms", "profiled ms")],
    )
    result.comparisons["under the profiler"] = c
    result.rows.append(
        {"what": "20 batches of 64 through a 784-128-128-10 MLP, profiler warmed up", **comparison_cells(c)}
    )
    result.rows.append(
        {
            "what": "the same, first profiled pass in the process (the seed's single pass)",
            "baseline_ms": c.baseline_s * 1e3,
            "variant_ms": first_pass * 1e3,
            "ratio": c.baseline_s / first_pass,
            "verdict": f"{first_pass / c.baseline_s:.0f}x slower (one measurement)",
            "spread": "single pass, no rounds",
        }
    )
    result.notes.append(
        "The profiled time includes recording every operator (record_shapes=True) and the profiler's "
        "post-processing on exit; it measures the profiler, not the model. The first profiled pass of a "
        "process also pays the profiler's start-up, which the seed's single pass included."
    )
    return result
