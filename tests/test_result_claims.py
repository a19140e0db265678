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


# --- the GPU section of the benchmarks page: every number in it is a committed H100 result ---

#: A number as the pages write it ("1,320", "0.0176", "64"), not part of a name (H100, TF32, float8_e4m3fn).
NUMBER = re.compile(r"(?<![\w.,])\d+(?:,\d{3})*(?:\.\d+)?(?!\w)")


def _figure(value: float) -> str:
    """A TFLOP/s or millisecond figure as the tables write it: three significant digits, thousands separated."""
    return f"{float(f'{value:.3g}'):,g}"


def _json(case: str) -> dict:
    return json.loads((RESULTS / f"{case}.json").read_text(encoding="utf-8"))


def _gpu_matmul() -> dict[tuple[int, str], dict]:
    data = _json("cuda/gpu_matmul")
    assert data["environment"]["gpu_name"] == "NVIDIA H100 80GB HBM3", data["environment"]["gpu_name"]
    return {(row["n"], row["dtype"]): row for row in data["rows"]}


def _gpu_findings() -> list[str]:
    """The numbers of benchmarks/index.md#gpu-findings, in the order both languages state them."""
    rows = _gpu_matmul()
    sizes = sorted({n for n, _ in rows})
    large = [n for n in sizes if n >= 4096]

    def best(dtype: str) -> str:
        return _figure(max(rows[n, dtype]["tflops"] for n in large))

    def pct(n: int, dtype: str) -> int:
        return int(rows[n, dtype]["pct_peak"].rstrip(" %"))

    def size(n: int) -> str:
        assert n in sizes, n
        return str(n)

    formats = ("float32", "tf32", "float16", "bfloat16", "float8_e4m3fn")
    from_4096 = [pct(n, d) for n in large for d in formats]
    amp = _json("cuda/amp_step")
    (note,) = [n for n in amp["notes"] if n["msg"] == "note.amp_step"]
    verdicts = {label: c["verdict"].split("x ")[0] for label, c in amp["comparisons"].items()}
    scaled, bf16 = verdicts["autocast float16 + GradScaler"], verdicts["autocast bfloat16"]
    overhead = verdicts["autocast float16 + GradScaler vs autocast float16, no scaler"]  # the scaler's own cost
    return [
        *(best(d) for d in formats),
        size(4096), str(min(from_4096)), str(max(from_4096)),
        size(1024), _figure(rows[1024, "bfloat16"]["tflops"]), str(pct(1024, "bfloat16")),
        size(4096),  # float8 pays only from n ≈ 4096
        size(1024), _figure(rows[1024, "float8_e4m3fn"]["tflops"]), _figure(rows[1024, "bfloat16"]["tflops"]),
        size(4096), _figure(rows[4096, "float8_e4m3fn"]["tflops"]), _figure(rows[4096, "bfloat16"]["tflops"]),
        *(size(n) for n in sizes), *(_figure(rows[n, "float8 scaling"]["events_ms"]) for n in sizes),
        *(_figure(rows[n, "bfloat16"]["events_ms"]) for n in sizes),
        f"{round((float(scaled) + float(bf16)) / 2)}",  # "about 10x faster"
        *note["args"]["mlp"].split("-"), str(note["args"]["batch"]), scaled, bf16, overhead,
    ]


def _gpu_transformer_step() -> list[str]:
    """The numbers of benchmarks/index.md#gpu-transformer-step: the H200 run's transformer step (its
    stamp, the model, each variant's ratio, time, rate, peak and loss difference), then the H100 run's
    first design, which was too noisy to publish."""
    step = _json("cuda-h200/gpu_transformer_step")
    env = step["environment"]
    assert env["gpu_name"] == "NVIDIA H200", env["gpu_name"]
    assert not step["too_noisy"], "a row of the H200 transformer step is flagged too noisy: do not publish it"
    (shape,) = [n["args"] for n in step["notes"] if n["msg"] == "note.transformer_steps"]
    rows = {r["variant"]: r for r in step["rows"]}
    tf32, fp16, bf16 = (rows[v] for v in ("tf32", "autocast float16 + GradScaler", "autocast bfloat16"))
    matmul = {(r["n"], r["dtype"]): r["tflops"] for r in _json("cuda-h200/gpu_matmul")["rows"]}
    best = {d: max(v for (n, dt), v in matmul.items() if dt == d) for d in ("float32", "bfloat16")}
    float32_tflops = shape["tflop"] / (bf16["baseline_ms"] / 1e3)
    (float32_peak,) = [n["args"]["peak"] for n in step["notes"] if n["msg"] == "note.step_peak_total"]
    (autocast_peak,) = {_figure(fp16["peak_gib"]), _figure(bf16["peak_gib"])}
    (loss_steps,) = [n["args"]["steps"] for n in step["notes"] if n["msg"] == "note.loss_after_steps"]
    (limit,) = [n["args"]["limit"] for n in step["notes"] if n["msg"] == "note.step_rounds"]
    figures = [
        env["date"][:10], env["gpu_capability"], env["gpu_driver"], env["torch_cuda"], env["torch_version"],
        str(shape["layers"]), str(shape["d_model"]), str(shape["classes"]), f"{shape['tokens']:,}",
        str(shape["batch"]), str(shape["seq"]), f"{shape['tflop']:.3g}",
        f"{bf16['ratio']:.2f}", f"{fp16['ratio']:.2f}", f"{tf32['ratio']:.2f}",
        f"{max(float(r['spread']) for r in rows.values()):.2f}", f"{limit:.2f}",
        _figure(bf16["baseline_ms"]), _figure(float32_tflops), _figure(best["float32"]),
        _figure(bf16["variant_ms"]), _figure(bf16["step_tflops"]),
        _figure(best["bfloat16"]), str(round(100 * bf16["step_tflops"] / best["bfloat16"])),
        _figure(float32_peak), autocast_peak,
        str(loss_steps), *(f"{r['loss_diff']:.1e}" for r in (tf32, fp16, bf16)),
    ]
    # the H100 run's first design: its shape, its float32 step and its spreads
    old = _json("cuda/gpu_transformer_step")
    assert old["environment"]["gpu_name"] == "NVIDIA H100 80GB HBM3", old["environment"]["gpu_name"]
    assert sorted(old["too_noisy"]) == sorted(old["comparisons"]), "the H100's first design was too noisy"
    (first,) = [n["args"] for n in old["notes"] if n["msg"] == "note.transformer_step"]
    spreads = [c["spread"] for c in old["comparisons"].values()]
    (baseline_ms,) = {round(c["baseline_ms"], 2) for c in old["comparisons"].values()}
    figures += [str(first["d_model"]), str(first["batch"]), str(first["seq"]), f"{baseline_ms:.2f}",
                f"{min(spreads):.2f}", f"{max(spreads):.2f}"]
    return NUMBER.findall(" ".join(figures))  # each figure as the page writes it, cut the way the page is


def _section(lang: str, page: str, section_id: str) -> str:
    """The text under the heading ``{#section_id}`` up to the next heading of the same or a higher level."""
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    m = re.search(rf"(?m)^(#+) [^\n]*\{{#{re.escape(section_id)}\}}\n", text)
    assert m, f"docs/{lang}/{page} has no section {{#{section_id}}}"
    body = text[m.end():]
    end = re.search(rf"(?m)^#{{1,{len(m.group(1))}}} ", body)
    return body[: end.start()] if end else body


GPU_SECTIONS = {"gpu-findings": _gpu_findings, "gpu-transformer-step": _gpu_transformer_step}


@pytest.mark.parametrize("section_id", sorted(GPU_SECTIONS))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_number_in_the_gpu_findings_is_the_committed_result(lang, section_id):
    """Every number typed in these sections, in order, is what the committed GPU results give (the H100
    run's for the findings, the H200 run's for the transformer step)."""
    body = _section(lang, "benchmarks/index.md", section_id)
    body = re.sub(r"--8<-- \"[^\"]+\"|\]\([^)]*\)|`[^`]*`", "", body)  # includes, link targets, code: not figures
    stated = NUMBER.findall(body)
    expected = GPU_SECTIONS[section_id]()
    assert stated == expected, (
        f"docs/{lang}/benchmarks/index.md#{section_id} states {stated}, the committed results give {expected} "
        "(in the order of tests/test_result_claims.py's GPU_SECTIONS): rewrite the sentence, or the test if a "
        "finding was added or removed"
    )


def test_float8_pays_only_from_4096_and_never_with_its_per_call_scaling():
    # benchmarks/index.md#gpu-findings (both languages): "at n = 1024 the float8 product is slower than
    # bfloat16's; at n = 4096 it is faster"; "quantizing both operands takes longer than the whole bfloat16
    # product at every size", so "float8 with that per-call scaling is slower than bfloat16 at every size".
    rows = _gpu_matmul()
    sizes = sorted({n for n, _ in rows})
    assert rows[1024, "float8_e4m3fn"]["tflops"] < rows[1024, "bfloat16"]["tflops"]
    assert all(rows[n, "float8_e4m3fn"]["tflops"] > rows[n, "bfloat16"]["tflops"] for n in sizes if n >= 4096)
    for n in sizes:
        scaling, bf16 = rows[n, "float8 scaling"]["events_ms"], rows[n, "bfloat16"]["events_ms"]
        assert scaling > bf16 and rows[n, "float8_e4m3fn"]["events_ms"] + scaling > bf16, n


def test_the_amp_step_on_the_h100_is_faster_and_the_scaler_costs_time():
    # benchmarks/index.md#gpu-findings and amp/performance.md#measured-gpu (both languages): both autocast
    # steps "about ten times faster" than float32 with TF32 off, the GradScaler makes the step slower.
    amp = _json("cuda/amp_step")
    assert not amp["too_noisy"], amp["too_noisy"]
    r = {label: c["ratio"] for label, c in amp["comparisons"].items()}
    assert 9 <= r["autocast float16 + GradScaler"] <= 11 and 9 <= r["autocast bfloat16"] <= 11, r
    assert r["autocast float16 + GradScaler vs autocast float16, no scaler"] < 1, r


def test_the_noisy_transformer_step_is_not_included_while_flagged():
    # benchmarks/index.md#gpu-transformer-step: its ratios are not published while every row is flagged.
    if not _json("cuda/gpu_transformer_step")["too_noisy"]:
        pytest.skip("the committed transformer step is no longer flagged: the section test says what to do")
    for lang in ("en", "ja"):
        for page in (DOCS / lang).rglob("*.md"):
            assert "results/cuda/gpu_transformer_step" not in page.read_text(encoding="utf-8"), page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_range_of_events_over_loop_on_the_page_is_the_committed_one(lang):
    # benchmarks/index.md#gpu-matmul: the two timers "agree" was written beside ratios of 0.90x-1.12x
    # (issue 40); the page now gives the range itself, which must be the committed column's min and max.
    rows = json.loads((RESULTS / "cuda/gpu_matmul.json").read_text())["rows"]
    low, high = (f"{f(r['agreement'] for r in rows):.2f}" for f in (min, max))
    text = (DOCS / lang / "benchmarks/index.md").read_text(encoding="utf-8")
    section = text[text.index("{#gpu-matmul}"):]
    section = " ".join(section.split("\n## ")[0].split("\n### ")[0].split())
    written = {"en": f"events / loop from {low}× to {high}×", "ja": f"比は {low}〜{high} 倍"}[lang]
    assert written in section, f"docs/{lang}/benchmarks/index.md#gpu-matmul should say {written!r}"
