"""What the pages say in words about the committed benchmark results, checked against them.

The tables are generated, but the sentences around them are written by hand. When someone re-runs
the benchmark and a direction changes (int8 no longer slower, say), these tests fail and point at
the sentence to rewrite.
"""

from __future__ import annotations

import json
import re
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


# --- the Findings section of the benchmarks page: every figure in it is a committed result ---

DOCS = RESULTS.parents[1] / "docs"

#: The figures of benchmarks/index.md#findings, in the order the section states them (both languages):
#: (results file, row). A timed row is a comparison's label; a size row is ("storage", index of the row).
FINDINGS = [
    ("cpu/matmul", "bfloat16"),
    ("cpu-avx2/matmul", "bfloat16"),
    ("cpu/amp_step", "autocast bfloat16"),
    ("cpu-avx2/amp_step", "autocast bfloat16"),
    ("cpu/dynamic_int8", "Linear 1024x1024, batch 16"),
    ("cpu/dynamic_int8", "Linear 64x64, batch 1"),
    ("cpu/torchao", "Int8DynamicActivationInt8WeightConfig (torch.compile)"),
    ("cpu/torchao", "Int8WeightOnlyConfig (torch.compile)"),
    ("cpu/onnx_runtime", "batch 1"),
    ("cpu/storage", ("Linear(1024, 1024), state_dict", "int8 dynamic (qint8 weights, float32 bias)")),
    ("cpu/storage", ("Linear(1024, 1024), state_dict", "float16")),
    ("cpu/profiler_overhead", "under the profiler"),
    ("cpu/profiler_overhead", "the same, first profiled pass in a fresh process (a single-pass benchmark)"),
]

#: A figure as the page writes it: the number and the word that says which way it goes.
FIGURE = {
    "en": re.compile(r"(\d+(?:\.\d+)?)×\s+(faster|slower|smaller)"),
    "ja": re.compile(r"(\d+(?:\.\d+)?) (倍速|倍遅|分の 1)"),
}
DIRECTION = {"en": {"faster": "faster", "slower": "slower", "smaller": "smaller"},
             "ja": {"倍速": "faster", "倍遅": "slower", "分の 1": "smaller"}}


def _expected_figure(case: str, row) -> tuple[str, str]:
    """(number, direction) as the committed table shows it: the verdict's figure, or a size ratio."""
    from benchmarks.catalog import english, from_json

    data = json.loads((RESULTS / f"{case}.json").read_text())
    assert not data["too_noisy"], f"{case}: rows flagged too noisy to publish: {data['too_noisy']}"
    if isinstance(row, tuple):
        (match,) = [r for r in data["rows"] if (english(from_json(r["what"])), english(from_json(r["dtype"]))) == row]
        return f"{match['ratio']:.2f}", "smaller"
    if row in data["comparisons"]:
        verdict = data["comparisons"][row]["verdict"]
    else:  # a row without rounds (the first profiled pass): found by its label
        (match,) = [r for r in data["rows"] if english(from_json(r[data["columns"][0]["key"]])) == row]
        verdict = english(from_json(match["verdict"]))
    m = re.match(r"(\d+(?:\.\d+)?)x (faster|slower)", verdict)
    assert m, f"{case} / {row}: the table now says {verdict!r}; rewrite the finding on benchmarks/index.md"
    return m.group(1), m.group(2)


def _findings_section(lang: str) -> str:
    text = (DOCS / lang / "benchmarks" / "index.md").read_text(encoding="utf-8")
    m = re.search(r"(?ms)^## [^\n]*\{#findings\}\n(.*?)(?=^## )", text)
    assert m, f"docs/{lang}/benchmarks/index.md has no section {{#findings}}"
    return m.group(1)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_figure_in_the_findings_is_the_committed_result(lang):
    """Each figure of the Findings, in order, is what its table shows (number and direction), and
    no other decimal number is typed there."""
    section = _findings_section(lang)
    stated = [(number, DIRECTION[lang][word]) for number, word in FIGURE[lang].findall(section)]
    expected = [_expected_figure(case, row) for case, row in FINDINGS]
    assert stated == expected, (
        f"docs/{lang}/benchmarks/index.md#findings states {stated}, the committed results give {expected} "
        "(in the order of FINDINGS): rewrite the sentence, or FINDINGS if a finding was added or removed"
    )
    checked = {number for number, _ in stated}
    unchecked = [n for n in re.findall(r"\d+\.\d+", section) if n not in checked]
    assert not unchecked, f"docs/{lang}/benchmarks/index.md#findings: numbers no test checks: {unchecked}"


def test_pt2e_is_faster_only_when_lowered():
    # benchmarks/index.md#pt2e and quantization/static.md#pt2e-lowering (both languages): the converted
    # graph run eagerly, or compiled without freezing, is not faster than float32 run the same way;
    # compiled with freezing (lowered to qlinear) it is.
    r = ratios("cpu/pt2e")
    assert r["PT2E int8 (eager)"] < 1, r
    assert r["PT2E int8 (torch.compile, freezing off)"] < 1.05, r
    assert r["PT2E int8 (torch.compile, freezing on)"] > 1.5, r
    data = json.loads((RESULTS / "cpu" / "pt2e.json").read_text())
    kernels = [row["kernel"] for row in data["rows"]]  # eager, freezing off, freezing on
    assert kernels[2] == "onednn.qlinear_pointwise", kernels
    assert kernels[1] == {"msg": "value.pt2e_addmm", "args": {}}, kernels
