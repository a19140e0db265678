"""The benchmark tables in two languages: rendered from the JSON with keyed texts, never translated after the fact."""

from __future__ import annotations

import ast
import json
import re
import shutil
import string
from pathlib import Path

import pytest

from benchmarks.catalog import CATALOG, LANGS, Msg, Text, english_words, from_json, render
from benchmarks.cli import build_parser
from benchmarks.cli import main as bench_main
from benchmarks.environment import collect_environment
from benchmarks.report import (
    CaseResult, Column, _cell, case_json_files, comparison_cells, markdown_path, render_markdown, write_case,
)
from benchmarks.timing import Comparison
from reference_impl.errors import ConfigError

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results"
PACKAGE = REPO / "benchmarks"
CASE_FILES = [path for folder in sorted(RESULTS.iterdir()) if folder.is_dir() for path in case_json_files(folder)]
NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:e[+-]?\d+)?")
#: The markup around a results table (the summary's wrapper, the fold of the full table), not prose.
MARKUP = re.compile(r'(?m)^(?:<div class="bench-result" markdown>|</div>|\?\?\? info bench-full (?=")|$)')
KEY = re.compile(r"(?:col|label|note|verdict|spread|value|env|stamp|details|summary)\.[a-z0-9_]+")

ENV = {"cpu_model": "Intel(R) Xeon(R) Processor @ 2.10GHz", "isa_class": "AMX", "torch_version": "2.13.0+cpu",
       "threads": "1", "date": "2026-11-21 23:12 UTC", "mode": "quick",
       "load_average": Msg("value.load_average", loads="1.18 / 1.00 / 1.00"), "device": "cpu"}


def _ids(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_the_committed_results_are_found():
    names = {_ids(p) for p in CASE_FILES}
    assert {"cpu/matmul", "cpu/environment", "cpu-avx2/matmul"} <= names


@pytest.mark.parametrize("json_path", CASE_FILES, ids=_ids)
@pytest.mark.parametrize("lang", LANGS)
def test_every_committed_table_is_what_its_json_renders_to(json_path, lang):
    table = markdown_path(json_path, lang)
    rel = table.relative_to(REPO)
    assert table.is_file(), f"{rel} is missing; run `python -m benchmarks --render-only --out {json_path.parent.relative_to(REPO)}`"
    assert table.read_text() == render_markdown(json.loads(json_path.read_text()), lang), (
        f"{rel} is stale or was edited by hand; it is generated from {json_path.name}: run "
        f"`python -m benchmarks --render-only --out {json_path.parent.relative_to(REPO)}`"
    )


def test_no_table_without_its_json():
    tables = [p for p in RESULTS.rglob("*.md") if p.name != "README.md"]
    orphans = [p for p in tables if not p.with_name(p.name.split(".")[0] + ".json").is_file()]
    assert not orphans


@pytest.mark.parametrize("json_path", CASE_FILES, ids=_ids)
def test_numbers_survive_in_the_japanese_table(json_path):
    english, japanese = markdown_path(json_path, "en").read_text(), markdown_path(json_path, "ja").read_text()
    missing = [n for n in NUMBER.findall(english) if n not in japanese]
    assert not missing, f"{json_path.stem}: numbers lost in the Japanese table: {missing}"
    assert japanese.count("\n|") == english.count("\n|"), "same number of table rows"
    prose = MARKUP.sub("", japanese.replace("\\_", "_").split("\n計測環境:")[0])
    assert not english_words(prose), "English left in the Japanese table"


def _case(noisy: bool) -> CaseResult:
    c = Comparison("float32", "bfloat16", 2e-3, 1e-3, (1.5, 2.0, 2.2) if noisy else (1.9, 2.0, 2.1))
    result = CaseResult("demo", "Demo", [Column("dtype", "col.dtype"), Column("verdict", "col.verdict"),
                                         Column("spread", "col.spread")])
    result.rows.append({"dtype": Msg("label.batch", batch=1), **comparison_cells(c)})
    result.add_comparison(Msg("label.batch", batch=1), c)
    result.notes.append(Msg("note.median_rounds", rounds=9))
    return result


def test_each_part_is_rendered_in_both_languages():
    data = json.loads(json.dumps(_case(noisy=False).to_json(ENV)))
    en, ja = render_markdown(data, "en"), render_markdown(data, "ja")
    summary = '<div class="bench-result" markdown>\n\n'
    assert en.startswith(summary + "| dtype | result (median of rounds) | spread (max/min) |\n")
    assert "| batch 1 | 2.00x faster | 1.11 |" in en and "Median of 9 alternating rounds." in en
    assert ja.startswith(summary + "| dtype | 結果(ラウンドの中央値) | ばらつき(最大/最小) |\n")
    assert "| バッチ 1 | 2.00 倍速い | 1.11 |" in ja and "交互に実行した 9 ラウンドの中央値です。" in ja
    assert "???" not in en + ja  # every column is in the summary: nothing to fold
    assert en.endswith("· 1 thread · load 1.18 · 2026-11-21 23:12 UTC · quick run*\n")
    assert ja.endswith("、1 スレッド、負荷 1.18、2026-11-21 23:12 UTC、クイック実行\n") and "\n計測環境: CPU Intel(R) Xeon(R) Processor @ 2.10GHz、命令セットの区分 AMX、torch 2.13.0+cpu、" in ja
    assert render(Msg("verdict.slower", ratio=2.5), "ja") == "2.50 倍遅い"
    assert render(Msg("verdict.unclear", ratio=0.98), "ja") == "明確な差なし(0.98 倍)"


def test_the_result_comes_first_and_the_full_table_is_folded():
    c = Comparison("float32", "int8", 1e-3, 4e-3, (0.24, 0.25, 0.26))
    result = CaseResult("demo", "Demo", [Column("model", "col.model"), Column("float32_ms", "col.float32_ms", "sig3"),
                                         Column("baseline", "col.compared_with"), Column("verdict", "col.verdict"),
                                         Column("spread", "col.spread"), Column("size", "col.state_dict_smaller", "times")])
    result.rows.append({"model": Msg("label.batch", batch=1), "baseline": "float32", **comparison_cells(c), "size": 3.98})
    data = json.loads(json.dumps(result.to_json(ENV)))
    en, ja = render_markdown(data, "en"), render_markdown(data, "ja")
    assert "| model and input vs baseline | result (median of rounds) | spread (max/min) |" in en
    assert "| batch 1 vs float32 | 4.00x slower | 1.08 |" in en  # a slowdown as plain as a speed-up
    assert "| 基準と比べたモデルと入力 | 結果(ラウンドの中央値) | ばらつき(最大/最小) |" in ja
    assert "| float32 と比べたバッチ 1 | 4.00 倍遅い | 1.08 |" in ja
    assert '\n??? info bench-full "Full table (6 columns)"\n\n    | model and input | compared with | result' in en
    assert '\n??? info bench-full "全 6 列の詳しい表"\n\n    | モデルと入力 | 比較対象 | 結果' in ja
    assert "| 3.98x |" in en and "| 3.98 分の 1 |" in ja and not re.search(r"\dx", ja)  # a size: 分の 1 in Japanese, never x


def test_a_size_ratio_of_one_says_no_reduction_in_japanese():
    # 「1.00 分の 1」 (the float32 rows of a size column) read as a calque of 1.00x to an editor
    for ratio, en, ja in [(1.0, "1.00x", "縮小なし(1.00 倍)"), (1.004, "1.00x", "縮小なし(1.00 倍)"),
                          (1.006, "1.01x", "1.01 分の 1")]:
        assert _cell(ratio, "times", "en", "col.smaller_than_float32") == en
        assert _cell(ratio, "times", "ja", "col.smaller_than_float32") == ja
    assert _cell(1.0, "times", "ja", "col.model") == "1.00 倍"  # not a size: a plain ratio


def test_write_case_writes_the_json_and_both_tables(tmp_path):
    json_path, md_path = write_case(_case(noisy=True), ENV, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.ja.md", "demo.json", "demo.md"]
    data = json.loads(json_path.read_text())
    assert md_path.read_text() == render_markdown(data, "en")
    ja = (tmp_path / "demo.ja.md").read_text()
    assert ja == render_markdown(data, "ja")
    assert "2.00 倍速い" in ja and "(ばらつきが大きく、比は参考になりません)" in ja
    # the note points at the marked rows and names none (a comparison's key is not the label its row shows)
    assert "「ばらつきが大きく、比は参考になりません」とした行は" in ja and "クイック実行" in ja
    assert "The rows marked too noisy to publish" in md_path.read_text()
    assert data["comparisons"]["batch 1"]["verdict"] == "2.00x faster"  # the JSON stays readable


# --- the catalog: a text without both languages fails here, at import, never on a GPU ---


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_catalog_text_has_both_languages_and_no_english_left(key):
    text = CATALOG[key]
    assert text.en.strip() and text.ja.strip()
    literal = "".join(part for part, *_ in string.Formatter().parse(text.ja))
    assert not english_words(literal), (key, text.ja)


@pytest.mark.parametrize(
    ("en", "ja", "problem"),
    [
        ("{n} steps", "", "has no Japanese text"),
        ("", "{n} ステップ", "has no English text"),
        ("{n} steps", "{m} ステップ", "placeholders"),
        ("{n} steps", "{n} steps", "still has English words"),
    ],
)
def test_a_broken_text_fails_when_the_catalog_is_built(en, ja, problem):
    with pytest.raises(ConfigError, match=problem):
        Text(en, ja)


def test_a_message_needs_a_catalog_key_and_its_arguments():
    with pytest.raises(ConfigError, match="no catalog text 'verdict.quicker'; add it to benchmarks/catalog.py"):
        Msg("verdict.quicker", ratio=2.0)
    with pytest.raises(ConfigError, match="takes \\['ratio'\\]"):
        Msg("verdict.faster", speedup=2.0)
    nested = Msg("label.state_dict", model=Msg("label.lstm", d_in=256, hidden=512, layers=2))
    assert from_json(json.loads(json.dumps(nested.to_json()))) == nested
    assert nested.render("ja") == "LSTM(256, 512, 2 層) の state_dict"


def _message_calls() -> list[tuple[str, int, str, set[str] | None]]:
    """(file, line, key, keyword names or None) of every catalog key written in the benchmark's code."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "catalog.py":
            continue
        tree = ast.parse(path.read_text())
        calls = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Msg" and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    calls[id(first)] = {kw.arg for kw in node.keywords}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.fullmatch(node.value):
                found.append((path.relative_to(REPO).as_posix(), node.lineno, node.value, calls.get(id(node))))
    return found


def test_every_key_the_code_uses_is_in_the_catalog_with_its_arguments():
    # This covers the CUDA-only branches too (amp_step's float16 rows, the step-peak note), which
    # no CPU run executes: a missing text there would otherwise only show on a GPU machine.
    uses = _message_calls()
    assert len(uses) > 50
    problems = []
    for file, line, key, kwargs in uses:
        if key not in CATALOG:
            problems.append(f"{file}:{line}: {key!r} is not in benchmarks/catalog.py")
            continue
        fields = {f for _, f, _, _ in string.Formatter().parse(CATALOG[key].en) if f}
        if kwargs is not None and kwargs != fields:
            problems.append(f"{file}:{line}: {key!r} takes {sorted(fields)}, the code passes {sorted(kwargs)}")
    assert not problems, "\n".join(problems)


def test_every_environment_field_and_mode_has_its_texts():
    env = collect_environment()
    for key in env:
        assert f"env.{key}" in CATALOG, key
    for mode in ("full", "quick"):
        assert f"value.{mode}" in CATALOG and f"stamp.{mode}" in CATALOG


# --- --render-only ---


def test_render_only_rewrites_both_tables_from_the_json_and_measures_nothing(tmp_path, capsys):
    folder = tmp_path / "cpu"
    shutil.copytree(RESULTS / "cpu", folder)
    (folder / "README.md").write_text("# not a case\n")
    (folder / "matmul.ja.md").write_text("stale\n")
    (folder / "matmul.md").write_text("stale\n")
    (folder / "storage.ja.md").unlink()
    before = {p.name: p.read_bytes() for p in folder.iterdir() if not p.name.endswith(".md") or p.name == "README.md"}
    assert bench_main(["--render-only", "--out", str(folder)]) == 0
    for json_path in case_json_files(folder):
        for lang in LANGS:
            committed = markdown_path(RESULTS / "cpu" / json_path.name, lang).read_bytes()
            assert markdown_path(json_path, lang).read_bytes() == committed, (json_path.name, lang)
    assert not (folder / "README.ja.md").exists()
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name in before} == before
    assert "wrote" in capsys.readouterr().out
    assert bench_main(["--render-only", "--out", str(tmp_path / "missing")]) == 2
    assert "--render-only" in build_parser().format_help()


def test_render_only_works_under_the_c_locale(tmp_path):
    """Results are read and written as UTF-8 whatever the locale (the Japanese tables are not ASCII)."""
    import os
    import shutil
    import subprocess
    import sys

    from docs_tools.docs_model import REPO

    src = REPO / "benchmarks" / "results" / "cpu"
    out = tmp_path / "cpu"
    shutil.copytree(src, out)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in ("LANG", "PYTHONUTF8")}
    env.update(LC_ALL="C", LANG="C", PYTHONUTF8="0", PYTHONIOENCODING="ascii:backslashreplace")
    proc = subprocess.run([sys.executable, "-m", "benchmarks", "--render-only", "--out", str(out)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for ja in sorted(out.glob("*.ja.md")):
        assert ja.read_text(encoding="utf-8") == (src / ja.name).read_text(encoding="utf-8"), ja.name


def test_probes_json_beside_the_cases_is_not_read_as_a_case(tmp_path):
    """`.ci/gpu` writes probes.json into benchmarks/results/cuda beside the cases; --render-only and
    the table checks must skip it (it has no columns) instead of failing with a KeyError."""
    import shutil

    folder = tmp_path / "cuda"
    folder.mkdir()
    case = CASE_FILES[0]
    shutil.copy(case, folder / case.name)
    (folder / "probes.json").write_text('{"environment": {}, "probes": []}', encoding="utf-8")
    assert [p.name for p in case_json_files(folder)] == [case.name]
