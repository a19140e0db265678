"""The Japanese benchmark tables: generated from the English ones, strict, numbers intact."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from benchmarks.cli import build_parser
from benchmarks.cli import main as bench_main
from benchmarks.i18n import UntranslatedError, english_words, japanese_path, to_japanese
from benchmarks.report import CaseResult, Column, case_markdown_files, comparison_cells, write_case
from benchmarks.timing import Comparison
from reference_impl.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
CASE_FILES = [md for folder in sorted(RESULTS.iterdir()) if folder.is_dir() for md in case_markdown_files(folder)]
NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:e[+-]?\d+)?")

ENV = {"cpu_model": "Intel(R) Xeon(R) Processor @ 2.10GHz", "isa_class": "AMX", "torch_version": "2.13.0+cpu",
       "threads": "1", "date": "2026-11-21 23:12 UTC", "mode": "quick", "load_average": "1.18 / 1.00 / 1.00",
       "device": "cpu"}
MD = (
    "| dtype | result (median of rounds) | spread (max/min) |\n| --- | --- | --- |\n"
    "| float32 | baseline | - |\n| bfloat16 | 6.08x faster | 1.22 |\n\n"
    "Median of 9 alternating rounds.\n\n"
    "*CPU: Xeon · ISA: AMX · torch 2.13.0+cpu · 1 thread · load 1.18 · 2026-11-21 23:12 UTC · full run*\n"
)


def test_the_committed_results_are_found():
    names = {f"{md.parent.name}/{md.name}" for md in CASE_FILES}
    assert {"cpu/matmul.md", "cpu/environment.md", "cpu-avx2/matmul.md"} <= names
    assert not any(md.name in {"README.md"} or md.name.endswith(".ja.md") for md in CASE_FILES)


@pytest.mark.parametrize("md", CASE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_committed_table_has_its_japanese_file_up_to_date(md):
    ja = japanese_path(md)
    assert ja.is_file(), f"{ja.relative_to(REPO)} is missing; run `python -m benchmarks --render-only`"
    assert ja.read_text() == to_japanese(md.read_text()), (
        f"{ja.relative_to(REPO)} is stale or was edited by hand; it is generated: run "
        f"`python -m benchmarks --render-only --out {md.parent.relative_to(REPO)}`"
    )


def test_no_japanese_table_without_its_english_source():
    orphans = [p for p in RESULTS.rglob("*.ja.md") if not p.with_name(p.name.removesuffix(".ja.md") + ".md").is_file()]
    assert not orphans


@pytest.mark.parametrize("md", CASE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_numbers_survive_the_translation(md):
    english, japanese = md.read_text(), japanese_path(md).read_text()
    missing = [n for n in NUMBER.findall(english) if n not in japanese]
    assert not missing, f"{md.name}: numbers lost in the Japanese table: {missing}"
    assert japanese.count("\n|") == english.count("\n|"), "same number of table rows"


def test_translation_of_each_part():
    ja = to_japanese(MD)
    assert "| dtype | 結果 (ラウンドの中央値) | ばらつき (最大/最小) |" in ja
    assert "| float32 | 基準 | - |" in ja and "| bfloat16 | 6.08 倍速い | 1.22 |" in ja
    assert "交互に実行した 9 ラウンドの中央値です。" in ja
    assert ja.endswith("· 1 スレッド · 負荷 1.18 · 2026-11-21 23:12 UTC · フル実行*\n")
    assert to_japanese(MD.replace("6.08x faster", "2.50x slower")).count("2.50 倍遅い") == 1
    assert "明確な差なし (0.98 倍)" in to_japanese(MD.replace("6.08x faster", "no clear difference (0.98x)"))


@pytest.mark.parametrize(
    ("old", "new", "kind"),
    [
        ("result (median of rounds)", "throughput gain", "header"),
        ("6.08x faster", "6.08x speedier", "cell"),
        ("| - |", "| skipped |", "cell"),
        ("Median of 9 alternating rounds.", "Median of 9 alternating rounds. Warm caches were dropped.", "note sentence"),
        ("1 thread · load", "1 worker · load", "stamp line"),
    ],
)
def test_unknown_english_text_raises(old, new, kind):
    assert old in MD
    with pytest.raises(UntranslatedError) as info:
        to_japanese(MD.replace(old, new, 1))
    message = str(info.value)
    assert f"untranslated {kind}" in message and "add it to the i18n table" in message
    assert "benchmarks/i18n.py" in message
    if kind != "stamp line":
        assert new.split(". ")[-1].strip("| ") in message, message
    assert isinstance(info.value, ConfigError)


def test_what_counts_as_an_english_word():
    assert english_words("3.20x faster (too noisy)") == ["faster", "too", "noisy"]
    assert english_words("bit-exact") == ["bit-exact"]
    kept = "float8_e4m3fn · state_dict · torch.compile · GradScaler · LSTM(256, 512) · Linear · eager · 1024x1024 · ms"
    assert english_words(kept) == []


def _case(noisy: bool) -> CaseResult:
    c = Comparison("float32", "bfloat16", 2e-3, 1e-3, (1.5, 2.0, 2.2) if noisy else (1.9, 2.0, 2.1))
    result = CaseResult("demo", "Demo", [Column("dtype", "dtype"), Column("verdict", "result (median of rounds)"),
                                         Column("spread", "spread (max/min)")])
    result.rows.append({"dtype": "bfloat16", **comparison_cells(c)})
    result.comparisons["bfloat16"] = c
    result.notes.append("Median of 9 alternating rounds.")
    return result


def test_write_case_writes_english_and_japanese(tmp_path):
    json_path, md_path = write_case(_case(noisy=True), ENV, tmp_path)
    ja = tmp_path / "demo.ja.md"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.ja.md", "demo.json", "demo.md"]
    assert json_path.is_file() and md_path.read_text().startswith("| dtype | result (median of rounds) |")
    assert ja.read_text() == to_japanese(md_path.read_text())
    text = ja.read_text()
    assert "2.00 倍速い" in text and "(ばらつきが大きすぎて公表不可)" in text
    assert "ばらつきが大きすぎて公表できない行" in text and ": bfloat16。" in text and "クイック実行" in text


def test_write_case_keeps_the_measurement_but_no_stale_japanese_table(tmp_path):
    result = _case(noisy=False)
    (tmp_path / "demo.ja.md").write_text("stale\n")
    result.notes.append("A sentence nobody translated.")
    with pytest.raises(UntranslatedError, match="A sentence nobody translated"):
        write_case(result, ENV, tmp_path)
    assert (tmp_path / "demo.json").exists() and (tmp_path / "demo.md").exists()  # nothing measured is lost
    assert not (tmp_path / "demo.ja.md").exists()  # and no out-of-date Japanese table stays behind


def test_render_only_rewrites_the_japanese_files_and_measures_nothing(tmp_path, capsys):
    folder = tmp_path / "cpu"
    shutil.copytree(RESULTS / "cpu", folder)
    (folder / "README.md").write_text("# not a case\n")
    (folder / "matmul.ja.md").write_text("stale\n")
    (folder / "storage.ja.md").unlink()
    before = {p.name: p.read_bytes() for p in folder.iterdir() if not p.name.endswith(".ja.md")}
    assert bench_main(["--render-only", "--out", str(folder)]) == 0
    for md in case_markdown_files(folder):
        assert japanese_path(md).read_text() == to_japanese(md.read_text())
    assert not (folder / "README.ja.md").exists()
    assert {p.name: p.read_bytes() for p in folder.iterdir() if not p.name.endswith(".ja.md")} == before
    assert "wrote" in capsys.readouterr().out
    assert bench_main(["--render-only", "--out", str(tmp_path / "missing")]) == 2
    assert "--render-only" in build_parser().format_help()
