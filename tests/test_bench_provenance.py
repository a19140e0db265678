"""Every committed result names the run that produced it, by a digest recorded when it was produced.

A result file (``benchmarks/results/<device>/<case>.json``, and ``probes.json`` where a GPU run left
one) ends with a ``provenance`` block: the run's name and the sha256 of everything else in the file,
recorded by the run (benchmarks/provenance.py). A number changed by hand, with the tables re-rendered
so that they agree with it, no longer matches that digest and fails here; re-rendering the tables
(``--render-only``) touches no JSON and keeps passing.

The files committed before digests existed carry a digest recorded by a one-off for the files as they
were committed (their ``recorded`` says so): they were not measured again.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchmarks import provenance
from benchmarks.cli import main as bench_main
from benchmarks.report import CaseResult, Column, case_json_files, comparison_cells, write_case
from benchmarks.timing import Comparison
from tests.test_result_rows import ENV, _table

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
RESULT_FILES = sorted(RESULTS.glob("*/*.json"))


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("json_path", RESULT_FILES, ids=_id)
def test_every_committed_result_matches_the_digest_of_its_run(json_path):
    problems = provenance.problems(_load(json_path))
    assert not problems, f"{_id(json_path)}: " + "\n".join(problems)


def test_every_result_file_is_checked():
    """Every JSON in a results folder is a result with a digest: the case files and anything beside them."""
    assert {_id(p) for p in RESULT_FILES} >= {"cpu/matmul", "cpu-avx2/matmul", "cuda/gpu_matmul", "cuda/environment"}
    assert {p for folder in RESULTS.iterdir() if folder.is_dir() for p in case_json_files(folder)} <= set(RESULT_FILES)


def test_the_files_of_one_run_share_its_stamp():
    """A run's name stands for one run: every file that names it carries the same environment stamp."""
    stamps: dict[str, dict] = {}
    for path in RESULT_FILES:
        data = _load(path)
        run = data[provenance.KEY]["run"]
        assert stamps.setdefault(run, data["environment"]) == data["environment"], (_id(path), run)
        assert run.startswith(data["environment"]["date"]), (_id(path), run)


def _write(tmp_path: Path) -> Path:
    c = Comparison("float32", "bfloat16", 4e-3, 1e-3, (3.9, 4.0, 4.1))
    result = CaseResult("demo", "Demo", [Column("dtype", "col.dtype"), Column("baseline_ms", "col.float32_ms", "sig3"),
                                         Column("variant_ms", "col.dtype_ms", "sig3"), Column("verdict", "col.verdict"),
                                         Column("spread", "col.spread")])
    result.rows.append({"dtype": "bfloat16", **comparison_cells(c)})
    result.add_comparison("bfloat16", c)
    json_path, _ = write_case(result, ENV, tmp_path, run="2026-11-21 23:12 UTC · cpu · 0123abcd")
    return json_path


def test_a_run_records_the_digest_and_re_rendering_keeps_it(tmp_path):
    json_path = _write(tmp_path)
    data = _load(json_path)
    block = data[provenance.KEY]
    assert block == {"run": "2026-11-21 23:12 UTC · cpu · 0123abcd", "sha256": provenance.digest(data),
                     "recorded": provenance.MEASURED}
    assert list(data)[-1] == provenance.KEY and provenance.problems(data) == []
    before = json_path.read_bytes()
    (tmp_path / "demo.md").write_text("stale\n", encoding="utf-8")
    assert bench_main(["--render-only", "--out", str(tmp_path)]) == 0
    assert json_path.read_bytes() == before and "4.00x faster" in (tmp_path / "demo.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("edit", ["a time", "a verdict", "the stamp", "a row removed"])
def test_a_number_changed_by_hand_fails_even_with_its_tables_re_rendered(tmp_path, edit):
    json_path = _write(tmp_path)
    data = _load(json_path)
    row = data["rows"][0]
    if edit == "a time":
        row["variant_ms"] *= 0.9
    elif edit == "a verdict":
        row["verdict"]["args"]["ratio"] = 4.4
    elif edit == "the stamp":
        data["environment"]["date"] = "2026-11-22 09:00 UTC"
    else:
        data["rows"].clear()
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert bench_main(["--render-only", "--out", str(tmp_path)]) == 0
    assert any("differ from the digest" in p for p in provenance.problems(_load(json_path)))


def test_a_file_without_provenance_fails():
    data = _table(Comparison("float32", "bfloat16", 4e-3, 1e-3, (3.9, 4.0, 4.1)))
    assert "does not name the run" in provenance.problems(data)[0]
    data[provenance.KEY] = {"run": "", "sha256": provenance.digest(data), "recorded": provenance.MEASURED}
    assert provenance.problems(data) == ["provenance.run is missing or empty"]


def test_a_committed_gpu_result_edited_by_hand_fails(tmp_path):
    """The review's case, on a copy of the committed GPU results: one TFLOP/s figure raised, tables re-rendered."""
    folder = tmp_path / "cuda"
    shutil.copytree(RESULTS / "cuda", folder)
    path = folder / "gpu_matmul.json"
    data = _load(path)
    assert provenance.problems(data) == []
    data["rows"][0]["tflops"] *= 1.2
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert bench_main(["--render-only", "--out", str(folder)]) == 0
    assert provenance.problems(_load(path))
