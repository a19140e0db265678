"""Every committed results row says what its own times say: "4x faster" beside times that say slower fails.

What is checked, and why it holds whatever the noise: tests/support/result_rows.py. The same check
runs on the rows of a fresh quick run in tests/test_bench.py (``test_every_row_agrees_with_its_times``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.catalog import Msg
from benchmarks.report import CaseResult, Column, case_json_files, comparison_cells
from benchmarks.timing import Comparison
from tests.support.result_rows import row_problems

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
CASE_FILES = [path for folder in sorted(RESULTS.iterdir()) if folder.is_dir() for path in case_json_files(folder)]
ENV = {"cpu_model": "Xeon", "isa_class": "AMX", "torch_version": "2.13.0", "threads": "1",
       "date": "2026-11-21 23:12 UTC", "mode": "quick", "load_average": "0.5 / 0.5 / 0.5", "device": "cpu"}


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("json_path", CASE_FILES, ids=_id)
def test_every_committed_row_agrees_with_its_times(json_path):
    data = json.loads(json_path.read_text(encoding="utf-8"))
    assert not row_problems(data, _id(json_path)), "\n".join(row_problems(data, _id(json_path)))


def test_the_committed_rows_are_checked():
    """The check reads timed rows in every timed table (not a vacuous pass over files it cannot read)."""
    timed = {_id(p) for p in CASE_FILES
             for row in json.loads(p.read_text(encoding="utf-8"))["rows"]
             if isinstance(row.get("verdict"), dict) and row["verdict"]["msg"] in ("verdict.faster", "verdict.slower")}
    assert {"cpu/matmul", "cpu/amp_step", "cuda/amp_step", "cuda/matmul", "cpu-avx2/matmul"} <= timed


def _table(c: Comparison, **row) -> dict:
    result = CaseResult("demo", "Demo", [Column("dtype", "col.dtype"), Column("baseline_ms", "col.float32_ms", "sig3"),
                                         Column("variant_ms", "col.dtype_ms", "sig3"), Column("verdict", "col.verdict"),
                                         Column("spread", "col.spread")])
    result.rows.append({"dtype": "bfloat16", **comparison_cells(c), **row})
    result.add_comparison("bfloat16", c)
    return json.loads(json.dumps(result.to_json(ENV)))


def test_a_row_that_contradicts_its_times_fails():
    """The review's case and its neighbours, each on a row that passes before it is broken."""
    c = Comparison("float32", "bfloat16", 4e-3, 1e-3, (3.9, 4.0, 4.1))
    assert row_problems(_table(c)) == []
    slower = Comparison("float32", "bfloat16", 1e-3, 4e-3, (0.24, 0.25, 0.26))
    assert row_problems(_table(slower)) == []
    # "4.00x faster" beside times that say slower (the times of the other row)
    assert any("the times say slower" in p for p in row_problems(_table(c, baseline_ms=1.0, variant_ms=4.0)))
    # "4.00x slower" beside times that say faster: the verdict flipped, the ratio kept
    assert any("the times say faster" in p for p in row_problems(_table(c, verdict=Msg("verdict.slower", ratio=4.0))))
    # the right direction, the wrong size: 9x beside times 4x apart with rounds spread 1.05
    assert any("not within the spread" in p for p in row_problems(_table(c, verdict=Msg("verdict.faster", ratio=9.0))))
    # "no clear difference" beside steady rounds
    assert any("rounds that disagree" in p for p in row_problems(_table(c, verdict=Msg("verdict.unclear", ratio=4.0))))
    # a stored comparison whose median is not its rounds'
    data = _table(c)
    data["comparisons"]["bfloat16"]["ratio"] = 5.0
    assert any("median of its rounds" in p for p in row_problems(data))


def test_the_printed_rounding_is_allowed_for_and_no_more():
    """A ratio at the edge of what the printed figures allow passes; one digit further fails."""
    c = Comparison("float32", "bfloat16", 1.0e-3, 1e-3, (1.0, 1.0, 1.0))
    # times printed "1" and "1" (three significant digits: 0.995 to 1.005 ms), spread "1.00" (0.995 to 1.005):
    # the times' ratio may be up to 1.0101 and the stated one 1.0101 x 1.005, printed 1.01 or 1.02
    assert row_problems(_table(c, verdict=Msg("verdict.faster", ratio=1.02))) == []
    assert any("not within the spread" in p for p in row_problems(_table(c, verdict=Msg("verdict.faster", ratio=1.04))))
