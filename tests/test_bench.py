"""The benchmark command: structure and sanity of a tiny quick run (no speed thresholds)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
import torch

from benchmarks import CASES, BenchConfig, compare, provenance, run_bench
from benchmarks.cases.pt2e import SOURCE_PARTITIONS_READ_MODULE_STACK
from benchmarks.catalog import english
from benchmarks.cli import main as bench_main
from benchmarks.timing import SPREAD_LIMIT, Comparison
from reference_impl.errors import ConfigError, VariantNotEngagedError
from tests.support.result_rows import row_problems


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """One quick run of every case with 2 short rounds (about 30 s on 2 cores)."""
    out = tmp_path_factory.mktemp("bench")
    cfg = BenchConfig.make(quick=True, rounds=2, min_time=0.005)
    results = run_bench(cfg, out, log=lambda line: None)
    return out, results


def _load(out, name):
    return json.loads((out / f"{name}.json").read_text())


def test_every_case_and_the_environment_are_written(quick):
    out, results = quick
    for name in ["environment", *CASES]:
        assert (out / f"{name}.json").is_file(), name
        assert (out / f"{name}.md").is_file(), name
        assert (out / f"{name}.ja.md").is_file(), name  # the Japanese table, rendered from the same JSON
        assert name in results
    assert set(CASES) >= {"storage", "matmul", "dynamic_int8", "torchao", "amp_step", "reference", "profiler_overhead"}


def test_every_stamp_field_is_filled(quick):
    out, _ = quick
    for name in ["environment", *CASES]:
        env = _load(out, name)["environment"]
        for key in ("cpu_model", "isa_class", "isa_flags", "torch_version", "threads", "quantized_engine",
                    "load_average", "date", "gpu_name", "gpu_driver", "torch_cpu_capability"):
            assert english(env[key]).strip(), (name, key)
        classes = env["isa_class"].split(", ")
        assert set(classes) <= {"AMX", "AVX512-FP16", "AVX512-BF16", "AVX512-VNNI", "AVX-512", "AVX2", "other"}, classes
        assert env["threads"] == "1"
        assert env["mode"] == "quick"


def test_markdown_is_a_table_with_a_stamp_line(quick):
    """A results table starts with its summary (case, result, spread) in div.bench-result; the full
    table, every column, follows folded; the environment is a plain table."""
    out, _ = quick
    for name in ["environment", *CASES]:
        text = (out / f"{name}.md").read_text()
        lines = text.splitlines()
        columns = _load(out, name)["columns"]
        blocks = re.findall(r"(?m)((?:^(?:    )?\|.*\|\n)+)", text)
        tables = [[line.strip() for line in block.splitlines()] for block in blocks]
        if name == "environment":
            assert len(tables) == 1 and lines[0].startswith("| "), name
        else:
            assert lines[0] == '<div class="bench-result" markdown>' and lines[2].startswith("| "), name
            assert 2 <= tables[0][0].count(" | ") + 1 <= 3, (name, tables[0][0])
        full = tables[-1]
        assert full[0].count(" | ") + 1 == len(columns), name  # the last table has every column
        if len(tables) == 2:  # folded: indented under "??? info"
            assert all(line.startswith("    |") for line in blocks[1].splitlines()), name
            assert text.split(blocks[1])[0].splitlines()[-2].startswith('??? info bench-full "'), name
        data = _load(out, name)
        measured = bool(data["rows"])
        if not measured:  # a case that cannot run here says why, in a note ("Not measured ...")
            assert name != "environment" and any(english(n).startswith("Not measured") for n in data["notes"]), name
        for table in tables:
            n_cols = table[0].count(" | ") + 1
            assert set(table[1].replace("|", "").split()) == {"---"}, name
            assert (len(table) > 2) == measured and all(line.count(" | ") + 1 == n_cols for line in table[2:]), name
        stamp = lines[-1]
        assert stamp.startswith("*CPU: ") and stamp.endswith("*"), stamp
        assert "torch " in stamp and "thread" in stamp and "ISA: " in stamp
        assert "```" not in text


def test_comparisons_carry_ratio_spread_and_noise_flag(quick):
    out, _ = quick
    for name in CASES:
        data = _load(out, name)
        for label, c in data["comparisons"].items():
            assert len(c["ratios"]) == 2, (name, label)
            assert c["spread"] >= 1.0
            assert c["too_noisy"] == (c["spread"] > SPREAD_LIMIT)
            assert ("slower" in c["verdict"]) == (c["ratio"] < 1 and "no clear" not in c["verdict"])
            assert (label in data["too_noisy"]) == c["too_noisy"]


def test_every_row_agrees_with_its_times(quick):
    """Fresh rows, as printed in both languages: each verdict's word and ratio agree with the row's two
    times and its spread, and each comparison's median, spread and verdict with its rounds
    (tests/support/result_rows.py; the committed rows: tests/test_result_rows.py)."""
    out, _ = quick
    problems = [p for name in CASES for p in row_problems(_load(out, name), name)]
    assert not problems, "\n".join(problems)
    timed = [name for name in CASES for row in _load(out, name)["rows"]
             if isinstance(row.get("verdict"), dict) and row["verdict"]["msg"] != "verdict.baseline"]
    assert {"matmul", "amp_step", "dynamic_int8", "reference"} <= set(timed), timed


def test_every_file_of_a_run_names_the_run_by_its_digest(quick):
    """Each file the run wrote ends with its provenance (benchmarks/provenance.py): one run name for all
    of them, and the digest of what the file holds, recorded by the run."""
    out, _ = quick
    blocks = [_load(out, name)["provenance"] for name in ["environment", *CASES]]
    assert len({b["run"] for b in blocks}) == 1 and blocks[0]["run"].startswith(_load(out, "environment")["environment"]["date"])
    assert all(b["recorded"] == provenance.MEASURED for b in blocks)
    assert not [name for name in ["environment", *CASES] if provenance.problems(_load(out, name))]


def test_dynamic_int8_is_really_int8_small_and_accurate(quick):
    out, _ = quick
    rows = _load(out, "dynamic_int8")["rows"]
    labels = " ".join(english(r["model"]) for r in rows)
    for needle in ("batch 1", "batch 16", "batch 128", "LSTM", "one step, batch 1", "one step, batch 32", "64-step loop"):
        assert needle in labels
    assert "Linear 64x64, batch 1" in labels and "Linear 256x256, batch 1" in labels  # where int8 can lose
    for r in rows:
        assert r["module"].startswith("dynamic."), r
        small = english(r["model"]).startswith(("Linear 64x64", "Linear 256x256"))
        # a small layer's float32 bias and quantization parameters are a larger share of its bytes
        assert r["size_ratio"] >= (2.5 if small else 3.9), r
        assert r["error_int8"] < 0.03, r
        assert r["error_fp32"] < 1e-5, r


def test_storage_ratios_respect_the_limits(quick):
    out, _ = quick
    for r in _load(out, "storage")["rows"]:
        assert r["ratio"] <= r["limit"] + 1e-9, r
        if r["dtype"] in ("float16", "bfloat16"):
            assert r["ratio"] >= 1.99, r
        if english(r["dtype"]).startswith("int8 dynamic"):
            assert 3.9 <= r["ratio"] < 4.0, r


def test_torchao_and_amp_and_reference(quick):
    out, _ = quick
    ao = _load(out, "torchao")["rows"]
    assert {r["config"] for r in ao} == {"Int8DynamicActivationInt8WeightConfig", "Int8WeightOnlyConfig"}
    for r in ao:
        assert r["size_ratio"] >= 3.9 and r["error"] < 0.03, r
    amp = _load(out, "amp_step")["rows"]
    assert any(english(r["variant"]) == "autocast bfloat16" and r["logits"] == "bfloat16" for r in amp)
    assert any("scaler overhead" in english(r["baseline"]) for r in amp)
    assert all(r["loss_diff"] < 1e-2 for r in amp)
    for r in _load(out, "reference")["rows"]:
        assert r["agree_count"] == r["n"], r
    profiler = _load(out, "profiler_overhead")["rows"]
    assert len(profiler) == 2 and "fresh process" in english(profiler[1]["what"])
    matmul = {r["dtype"]: r for r in _load(out, "matmul")["rows"]}
    assert set(matmul) >= {"float32", "float16", "bfloat16"}
    assert matmul["bfloat16"]["error"] < 0.01 and matmul["float32"]["error"] < 1e-5


def test_pt2e_is_measured_or_names_the_torch_it_cannot_run_on(quick):
    """From torch 2.13 the PT2E case measures (the eager row in quick mode); on torch 2.11 its recipe
    quantizes nothing (get_source_partitions finds no Linear in a non-strict export), and the table
    says so with the version instead of rows. Checked on 2.13.0+cpu (measured) and 2.11.0+cu130 (note)."""
    out, _ = quick
    data = _load(out, "pt2e")
    if torch.__version__ >= SOURCE_PARTITIONS_READ_MODULE_STACK or data["rows"]:
        assert [english(r["mode"]) for r in data["rows"]] == ["eager"], data["rows"]
        assert data["rows"][0]["error"] < 0.03, data["rows"]
        assert not any(n["msg"] == "note.pt2e_no_source_partitions" for n in data["notes"]), data["notes"]
    else:
        assert data["notes"] == [{"msg": "note.pt2e_no_source_partitions", "args": {"torch": str(torch.__version__)}}]
        assert data["comparisons"] == {}


@pytest.mark.parametrize("found", [0, 2], ids=["no-linear-found", "linears-found"])
def test_pt2e_refuses_a_graph_that_quantized_nothing(monkeypatch, found):
    """The silent-no-op guard: convert_pt2e made to quantize nothing. Refused whenever
    get_source_partitions found the Linear layers, and on torch >= 2.13 even when it found none
    (there PT2E is supposed to work); only before 2.13 with none found is it the version's note."""
    from benchmarks.cases import pt2e

    with pt2e._quiet():  # torchao's import warns on the way, as in the case
        quantize_pt2e = pytest.importorskip("torchao.quantization.pt2e.quantize_pt2e")

    monkeypatch.setattr(quantize_pt2e, "convert_pt2e", lambda prepared: prepared)  # observers, no q/dq ops
    monkeypatch.setattr(pt2e, "linear_partitions", lambda graph_module: found)
    cfg = BenchConfig.make(quick=True, rounds=2, min_time=0.005)
    if found == 0 and not torch.__version__ >= SOURCE_PARTITIONS_READ_MODULE_STACK:
        result = pt2e.run(cfg)
        assert not result.rows and [n.key for n in result.notes] == ["note.pt2e_no_source_partitions"]
    else:
        with pytest.raises(VariantNotEngagedError, match="without quantize/dequantize ops"):
            pt2e.run(cfg)


def test_compare_alternates_and_rejects_bad_settings():
    x = torch.randn(32, 32)
    out = compare(("a", lambda: x @ x), {"b": lambda: x + x}, rounds=3, min_time=0.001)
    assert isinstance(out["b"], Comparison) and len(out["b"].ratios) == 3
    with pytest.raises(ConfigError, match="rounds"):
        compare(("a", lambda: x), {"b": lambda: x}, rounds=1)
    with pytest.raises(ConfigError, match="variant"):
        compare(("a", lambda: x), {}, rounds=2)


def test_cli_selects_cases_and_reports_errors(tmp_path, capsys):
    assert bench_main(["--cases", "storage", "--out", str(tmp_path), "--quick"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "environment.ja.md", "environment.json", "environment.md", "storage.ja.md", "storage.json", "storage.md"
    ]
    assert "results written to" in capsys.readouterr().out
    if not torch.cuda.is_available():
        assert bench_main(["--device", "cuda", "--out", str(tmp_path)]) == 2
        assert "torch.cuda.is_available() is False" in capsys.readouterr().err


def test_module_entry_point_rejects_unknown_cases_and_the_old_command():
    proc = subprocess.run([sys.executable, "-m", "benchmarks", "--cases", "benchmark"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "invalid choice: 'benchmark'" in proc.stderr
    old = subprocess.run([sys.executable, "-m", "reference_impl", "bench"], capture_output=True, text=True)
    assert old.returncode == 2
    assert "python -m benchmarks" in old.stderr


def test_onnx_runtime_int8_is_smaller_and_accurate(quick):
    pytest.importorskip("onnxruntime")
    out, _ = quick
    rows = _load(out, "onnx_runtime")["rows"]
    assert [r["batch"] for r in rows] == [1, 64]
    for r in rows:
        assert r["size_ratio"] >= 3.9, r
        assert r["error"] < 0.03, r


@pytest.mark.parametrize("folder", ["cpu", "cpu-avx2"])
def test_published_rows_have_unique_labels(folder):
    """``--device cpu`` finds a reader's row in the published results by its label: every published
    ratio must have a label of its own (the summary's case cells), none empty."""
    import json

    from benchmarks.published import RESULTS, row_label

    for path in sorted((RESULTS / folder).glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if "rows" not in data:
            continue
        labels = [row_label(row, data["columns"]) for row in data["rows"] if "ratio" in row]
        assert all(labels), f"{path.name}: an empty label in {labels}"
        assert len(labels) == len(set(labels)), f"{path.name}: labels repeat: {labels}"


def test_a_quick_run_is_not_compared_with_a_full_one(quick):
    """The site publishes full runs; a --quick run uses other sizes, so its lines say so instead of
    comparing ratios of different sizes."""
    from benchmarks.published import beside_published

    out, results = quick
    env = _load(out, "environment")["environment"]
    lines = beside_published(results, env)
    assert any("quick mode" in line and "run without --quick" in line for line in lines), lines
    assert not any("(published:" in line for line in lines), lines
