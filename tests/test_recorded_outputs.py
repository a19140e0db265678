"""Outputs recorded on another machine (the GPU outputs): the ``[recorded]`` stamp and the rules
that say which of their values a rerun may change (docs_tools/snippets.py, docs_tools/outputs.py).

The CUDA page scripts' outputs were recorded on a lent H100 (torch 2.11.0+cu130, CUDA 13.0,
2026-11-26); the pages show them with that stamp, and the next GPU run compares its output with
them. Timings differ on every run (``varies = "run"``), a device name on every GPU
(``varies = "gpu"``), float8_e4m3fn's overflow between torch 2.11 and 2.13 (``varies = "torch"``);
everything else stays exact. These tests need no GPU and no site build.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

from docs_tools.outputs import Rule, compare_outputs, numbers_of, unused_rules
from docs_tools.snippets import (
    REPO,
    SNIPPETS,
    Recorded,
    SnippetMetaError,
    parse_sidecar,
    snippet_meta,
    tolerance_rules,
    with_recorded,
)

H100 = {"device": "NVIDIA H100 80GB HBM3", "torch": "2.11.0+cu130"}
H100_TORCH_213 = {"device": "NVIDIA H100 80GB HBM3", "torch": "2.13.0+cu130"}
H200 = {"device": "NVIDIA H200", "torch": "2.11.0+cu130"}
RECORDED = '[recorded]\ndevice = "NVIDIA H100 80GB HBM3"\ntorch = "2.11.0+cu130"\ncuda = "13.0"\ndate = "2026-11-26"\n'
CUDA_SCRIPTS = sorted(p for p in SNIPPETS.rglob("*_cuda.py") if "cuda" in snippet_meta(p).requires)


def _shown(name: str) -> str:
    return (SNIPPETS / name).with_suffix(".out").read_text(encoding="utf-8")


def _rules(name: str, environment: dict) -> list[Rule]:
    return tolerance_rules(snippet_meta(SNIPPETS / name), environment)


# --- the stamp ------------------------------------------------------------------


def test_recorded_table_is_parsed_and_captioned_in_both_languages(tmp_path):
    meta = parse_sidecar('requires = ["cuda"]\n' + RECORDED, tmp_path / "x.py")
    assert meta.recorded == Recorded("NVIDIA H100 80GB HBM3", "2.11.0+cu130", "2026-11-26", "13.0")
    assert meta.recorded.torch_release == "2.11"
    assert meta.recorded.caption("en") == "Output on NVIDIA H100 80GB HBM3 (torch 2.11.0+cu130, CUDA 13.0, recorded 2026-11-26)"
    assert meta.recorded.caption("ja") == "NVIDIA H100 80GB HBM3 での出力(torch 2.11.0+cu130、CUDA 13.0、2026-11-26 に記録)"
    cpu = Recorded("Intel Xeon", "2.13.0+cpu", "2026-11-24")  # cuda is optional
    assert cpu.caption("en") == "Output on Intel Xeon (torch 2.13.0+cpu, recorded 2026-11-24)"
    assert "CUDA" not in cpu.caption("ja")


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('[recorded]\ndevice = "x"\ntorch = "2.11.0"\n', "lacks"),
        (RECORDED + 'gpu = "x"\n', "unknown keys"),
        (RECORDED.replace("2026-11-26", "26.11.2026"), "ISO date"),
        (RECORDED.replace('"2.11.0+cu130"', '"latest"'), "not a version"),
        (RECORDED.replace('"13.0"', "13.0"), "non-empty strings"),
        ("recorded = 1\n", "table"),
        ('[[tolerance]]\nline = "^x"\nvaries = "gpu"\nwhy = "w"\n', "needs a \\[recorded\\] table"),
    ],
)
def test_recorded_table_is_validated(tmp_path, table, message):
    with pytest.raises(SnippetMetaError, match=message):
        parse_sidecar(table, tmp_path / "x.py")


def test_update_outputs_rewrites_the_stamp_and_keeps_the_rest():
    sidecar = '# How the tests run x.py\nrequires = ["cuda"]\n\n[[tolerance]]\nline = "^a"\nvaries = "run"\nwhy = "w"\n'
    new = Recorded("NVIDIA H200", "2.13.0+cu130", "2027-01-02", "13.0")
    appended = with_recorded(sidecar, new)
    assert appended.startswith(sidecar) and appended.endswith(new.toml())
    old = with_recorded(sidecar, Recorded("NVIDIA H100 80GB HBM3", "2.11.0+cu130", "2026-11-26", "13.0"))
    replaced = with_recorded(old, new)
    assert replaced == appended and "H100" not in replaced
    # a [recorded] table followed by another table: only the stamp changes
    middle = with_recorded(RECORDED + '\n[[tolerance]]\nline = "^a"\nvaries = "run"\nwhy = "w"\n', new)
    assert "H100" not in middle and middle.count("[[tolerance]]") == 1
    assert parse_sidecar(middle, REPO / "x.py").recorded == new


# CUDA page scripts written after the last GPU run: no output yet. Each page says so under the code;
# `bash .ci/gpu` records them (it gives every CUDA script without a committed .out an empty one in its
# copy of the tree). Remove a line once its recording is committed: a listed script with an .out fails.
AWAITING_A_GPU: dict[str, str] = {
    # "<script>": "why it has no output yet" (amp/memory_offload_cuda.py was recorded on the H200, 2026-11-30)
}


@pytest.mark.parametrize("path", CUDA_SCRIPTS, ids=lambda p: str(p.relative_to(SNIPPETS)))
def test_every_cuda_output_is_stamped_with_the_run_that_printed_it(path):
    """Issue 29: every CUDA page script shows a GPU run's output (the H100's; memory_offload_cuda the H200's),
    stamped with where it ran."""
    out = path.with_suffix(".out")
    if str(path.relative_to(SNIPPETS)) in AWAITING_A_GPU:
        assert not out.exists(), f"{out.name} is recorded now: remove its line from AWAITING_A_GPU"
        return
    assert out.is_file() and out.read_text(encoding="utf-8").strip(), f"{out.name}: the GPU run's output is missing"
    recorded = snippet_meta(path).recorded
    assert recorded is not None, f"{path.name}: no [recorded] table"
    assert recorded.device.startswith("NVIDIA ") and recorded.cuda, recorded


# --- measurements: varies = "run" ----------------------------------------------


def test_a_measured_timing_may_take_any_value_but_its_text_stays_exact():
    shown = _shown("gpu/measure_cuda.py")
    rules = _rules("gpu/measure_cuda.py", H100)
    assert numbers_of("without synchronize: 0.037 ms -> 29,716 TFLOP/s") == ["0.037", "29,716"]  # one number, not two
    rerun = (
        "without synchronize: 0.041 ms -> 26,817 TFLOP/s\n"
        "with CUDA events:    1.402 ms -> 784 TFLOP/s\n"
        "peak memory: 1,056 MiB\n"
    )
    assert compare_outputs(shown, rerun, rules) is None
    slow_launch = rerun.replace("0.041 ms -> 26,817", "1.200 ms -> 916")  # separators come and go with the size
    assert compare_outputs(shown, slow_launch, rules) is None
    assert "text differs" in compare_outputs(shown, rerun.replace("TFLOP/s\nwith", "GFLOP/s\nwith"), rules)
    assert "text differs" in compare_outputs(shown, rerun.replace("peak memory: 1,056 MiB", "peak memory: n/a MiB"), rules)
    assert compare_outputs(shown, rerun, []) is not None  # without the rules every number is exact


def test_a_profiler_table_keeps_its_call_counts_and_kernel_names_exact_on_the_recorded_gpu():
    shown = _shown("gpu/profile_cuda.py")
    rules = _rules("gpu/profile_cuda.py", H100)
    assert all(not r.whole_line for r in rules)  # on the recorded GPU the kernel rows are compared too
    rerun = (
        shown.replace("108.909us", "98.120us").replace("3.316ms", "912.404us")  # a time that changes its unit
        .replace("87.09%", "86.95%").replace("Self CPU time total: 3.072ms", "Self CPU time total: 2.881ms")
        .replace("Self CUDA time total: 436.490us", "Self CUDA time total: 1.002ms")
    )
    assert rerun != shown and compare_outputs(shown, rerun, rules) is None
    fewer_calls = shown.replace("20.119us            30", "20.119us            20")
    assert "integers are exact" in compare_outputs(shown, fewer_calls, rules)
    other_kernel = shown.replace("nvjet_sm90_tst_128x64_64x8_1x2_h_bz_bias_TNT", "sm80_xmma_gemm_bf16bf16_bf16f32_tn_n")
    assert compare_outputs(shown, other_kernel, rules) is not None
    # on another GPU the kernel rows depend on the GPU: only their shape is compared
    assert compare_outputs(shown, other_kernel, _rules("gpu/profile_cuda.py", H200)) is None
    assert compare_outputs(shown, fewer_calls, _rules("gpu/profile_cuda.py", H200)) is not None


# --- lines that depend on the GPU or the torch version -----------------------


FLOAT8_ON_TORCH_213 = """torch 2.13.0+cu130 on NVIDIA H100 80GB HBM3
float8_e4m3fn: cpu [448.0, 448.0, 448.0, 448.0, 448.0, 448.0, 448.0, nan]
float8_e4m3fn: cuda [448.0, 448.0, 448.0, 448.0, 448.0, 448.0, 448.0, nan]
float8_e5m2: cpu [448.0, 448.0, 448.0, 1024.0, 57344.0, inf, inf, nan]
float8_e5m2: cuda [448.0, 448.0, 448.0, 1024.0, 57344.0, inf, inf, nan]
"""


def test_float8_overflow_is_exact_under_the_recorded_torch_and_version_guarded_under_2_13():
    """e4m3fn gave NaN on torch 2.11 (CPU and CUDA alike) and saturates from 2.13 (PR 178817)."""
    shown = _shown("gpu/float8_overflow_cuda.py")
    assert "nan, nan, nan" in shown.splitlines()[2]
    on_211 = _rules("gpu/float8_overflow_cuda.py", H100)
    on_213 = _rules("gpu/float8_overflow_cuda.py", H100_TORCH_213)
    assert on_211 == [] and {r.varies for r in on_213} == {"torch"}
    assert compare_outputs(shown, FLOAT8_ON_TORCH_213, on_211) is not None  # 2.11 must print what it printed
    assert compare_outputs(shown, FLOAT8_ON_TORCH_213, on_213) is None
    wrong = FLOAT8_ON_TORCH_213.replace("cuda [448.0, 448.0, 448.0,", "cuda [448.0, 448.0, 0.0,")
    assert "does not match" in compare_outputs(shown, wrong, on_213)
    e5m2_changed = FLOAT8_ON_TORCH_213.replace("57344.0, inf, inf, nan]\n", "57344.0, 57344.0, 57344.0, nan]\n")
    assert compare_outputs(shown, e5m2_changed, on_213) is not None  # e5m2 did not change: exact in every version


def test_a_device_name_is_exact_on_the_recorded_gpu_and_a_pattern_elsewhere():
    shown = _shown("storage/create_dtypes_cuda.py")
    h200 = shown.replace("NVIDIA H100 80GB HBM3 capability", "NVIDIA H200 capability")
    assert compare_outputs(shown, h200, _rules("storage/create_dtypes_cuda.py", H100)) is not None
    assert compare_outputs(shown, h200, _rules("storage/create_dtypes_cuda.py", H200)) is None
    no_bf16 = h200.replace("native bf16: True", "native bf16: False")
    assert compare_outputs(shown, no_bf16, _rules("storage/create_dtypes_cuda.py", H200)) is not None
    # a CPU-only machine (no device) is not the recorded machine either
    assert _rules("storage/create_dtypes_cuda.py", {"device": None, "torch": "2.13.0+cpu"})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"varies": "run", "abs": 0.1}, "accepts any value"),
        ({"varies": "gpu", "number": 1}, "whole line"),
        ({"varies": "weather"}, "one of"),
        ({"varies": "run", "number": 0}, "1-based"),
        ({"varies": "run", "number": []}, "empty"),
        ({}, "abs"),
    ],
)
def test_varies_rules_are_validated(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Rule(line="^x", why="w", **kwargs)


def test_positions_count_from_the_end_and_a_rule_that_covers_nothing_is_reported():
    rule = Rule(line="rows", why="w", number=(-3, -2), varies="run")
    assert [rule.covers("rows 1 2 3 4", p) for p in (1, 2, 3, 4)] == [False, True, True, False]
    assert compare_outputs("rows 7 1.5 2.5 30", "rows 7 9.0 1 30", [rule]) is None
    assert "integers are exact" in compare_outputs("rows 7 1.5 2.5 30", "rows 7 9.0 1 31", [rule])
    assert unused_rules("rows 1 2 3 4", [rule]) == []  # a measurement covers integers too
    assert unused_rules("nothing here", [rule, Rule(line="^x", why="w", varies="gpu")]) != []


# --- the page: the stamp under the output --------------------------------------


def _outputs_hook():
    hooks = str(REPO / "docs" / "hooks")
    sys.path.insert(0, hooks)
    try:
        spec = importlib.util.spec_from_file_location("outputs_hook_under_test", REPO / "docs" / "hooks" / "outputs.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(hooks)
    return module


def test_the_page_shows_where_a_gpu_output_was_recorded_under_it():
    from bs4 import BeautifulSoup

    hook = _outputs_hook()
    markdown = (
        '```python\n--8<-- "snippets/gpu/tf32_matmul_cuda.py"\n```\n\n```text\n--8<-- "snippets/gpu/tf32_matmul_cuda.out"\n```\n\n'
        '```text\n--8<-- "snippets/gpu/float8_formats.out"\n```\n'  # a CPU output: no stamp
    )
    outputs = hook.recorded_outputs(markdown)
    assert [rec.device for _, rec in outputs] == ["NVIDIA H100 80GB HBM3"]

    def block(text):
        return f'<div class="language-text highlight"><pre><span></span><code>{text}</code></pre></div>'

    html = block(_shown("gpu/tf32_matmul_cuda.py")) + block(_shown("gpu/float8_formats.py"))
    for language, words in (("en", "Output on NVIDIA H100 80GB HBM3"), ("ja", "NVIDIA H100 80GB HBM3 での出力")):
        tree = BeautifulSoup(html, "html.parser")
        hook.label_outputs(tree, "Output")
        assert hook.stamp_recorded_outputs(tree, outputs, language) == 1
        figures = tree.select("figure.code-output")
        stamp = figures[0].select_one("p.output-recorded")
        assert stamp is not None and stamp.get_text().startswith(words) and "2026-11-26" in stamp.get_text()
        assert stamp.find_previous_sibling("div") is not None  # under the block, inside its figure
        assert figures[1].select_one("p.output-recorded") is None
