"""What the pages say in words about the committed benchmark results, checked against them.

The tables are generated, but the sentences around them are written by hand. When someone re-runs
the benchmark and a direction changes (int8 no longer slower, say), these tests fail and point at
the sentence to rewrite.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "results"
SMALL_LINEARS = ("Linear 64x64, batch 1", "Linear 256x256, batch 1")


def ratios(case: str) -> dict[str, float]:
    """float32 time / variant time per row label, from a committed results JSON (``cpu/matmul``)."""
    data = json.loads((RESULTS / f"{case}.json").read_text())
    assert not data["too_noisy"], f"{case}: rows flagged too noisy to publish: {data['too_noisy']}"
    return {label: c["ratio"] for label, c in data["comparisons"].items()}


def test_small_linear_layers_are_slower_in_int8():
    # quantization/dynamic.md#when-faster (both languages): "the two small Linear layers at batch 1
    # are slower in int8 than in float32, and one step of the RNNCell at batch 1 gains least of the
    # larger models"; the common-mistakes entry repeats it.
    r = ratios("cpu/dynamic_int8")
    for label in SMALL_LINEARS:
        assert r[label] < 1, (label, r[label])
    larger = {label: ratio for label, ratio in r.items() if label not in SMALL_LINEARS}
    assert all(ratio > 1 for ratio in larger.values()), larger
    assert min(larger, key=larger.get) == "RNNCell(256, 512), one step, batch 1", larger


@pytest.mark.parametrize("case", ["cpu-avx2/matmul", "cpu-avx2/amp_step"])
def test_bfloat16_limited_to_avx2_is_many_times_slower(case):
    # amp/performance.md#amx ("many times slower"), benchmarks/index.md#avx2-emulation and
    # storage/half-vs-float.md ("far slower"): every low-precision row of the AVX2 emulation.
    # rows against float32 only ("X vs Y" rows compare two low-precision variants)
    low_precision = {label: ratio for label, ratio in ratios(case).items() if " vs " not in label}
    assert low_precision
    assert all(ratio < 0.2 for ratio in low_precision.values()), low_precision
