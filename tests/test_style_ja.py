"""Japanese style, checked by a maintained linter: textlint on every Japanese page, on the
Markdown cells of every Japanese notebook and on the generated benchmark tables the pages include.

The rules (.textlintrc.json, docs/prh.yml) and why each is set as it is: STYLE.ja.md.
textlint-rule-preset-ja-technical-writing (sentence length, doubled particles, mixed
styles, periods, question/exclamation marks ...), textlint-rule-preset-ja-spacing (spaces
between Japanese and alphanumerics, none around links, slashes and parentheses) and
textlint-rule-prh (the spelling rules of STYLE.ja.md: long vowels, one term per concept).
Installed from npm by ``bash .ci/setup browser`` (package.json, pinned).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from docs_tools.docs_model import (
    DOCS,
    REPO,
    notebook_cells,
    notebook_markdown,
    table_cells,
)
from benchmarks.environment import JA_STAMP_PREFIX
from tests.support.shared_cache import cache_home

_MD = MarkdownIt("commonmark")

TEXTLINT = REPO / "node_modules" / ".bin" / "textlint"


# What decides textlint's verdict on a page besides the page: its rules and their versions.
RULE_FILES = (".textlintrc.json", "docs/prh.yml", "package.json", "package-lock.json")


def _passes_dir() -> Path:
    """The pages textlint passed, by the hash of the page and RULE_FILES (shared by the clones on the
    machine, like the copy-paste passes): a page that passed is not linted again while neither
    changes. textlint's own ``--cache`` keys on file times, which are new in every clone."""
    rules = hashlib.sha256(b"".join((REPO / f).read_bytes() for f in RULE_FILES if (REPO / f).is_file()))
    rules.update(subprocess.run(["node", "--version"], capture_output=True, text=True, check=False).stdout.encode())
    return cache_home() / "textlint-passes" / rules.hexdigest()[:24]


def _notebook_prose(notebook: Path, out: Path) -> list[tuple[int, int]]:
    """The notebook's Markdown cells written to ``out`` as docs_model.notebook_markdown joins them
    (what textlint can read), and where each cell starts there: (first line in ``out``, cell index)."""
    starts, line = [], 1
    for index, cell in enumerate(notebook_cells(notebook)):
        if cell["cell_type"] == "markdown":
            starts.append((line, index))
            line += "".join(cell["source"]).count("\n") + 2  # the cell's lines, then the blank line between cells
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(notebook_markdown(notebook) + "\n", encoding="utf-8")
    return starts


def _table_prose(table: Path, out: Path) -> None:
    """The generated table written to ``out`` with its stamp line blanked (line numbers kept): the
    stamp is a list of facts, not a sentence, so it has no 。 and may be longer than a sentence may be."""
    lines = table.read_text(encoding="utf-8").split("\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join("" if line.startswith(JA_STAMP_PREFIX) else line for line in lines), encoding="utf-8")


def test_japanese_pages_follow_the_style_rules(tmp_path):
    """textlint on every Japanese page, on the Markdown cells of every Japanese notebook (written
    out as one Markdown file per notebook; a problem names the notebook, its cell and the line), and
    on the Japanese benchmark tables (benchmarks/results/*/*.ja.md, generated from benchmarks/catalog.py
    and included by the pages, so textlint never saw them in docs/ja) without their stamp lines."""
    if not TEXTLINT.exists() or shutil.which("node") is None:
        pytest.fail("textlint is not installed: run `bash .ci/setup browser` (npm ci)", pytrace=False)
    pages = sorted((DOCS / "ja").rglob("*.md"))
    assert len(pages) > 40, f"only {len(pages)} Japanese pages"
    notebooks = sorted((DOCS / "ja").rglob("*.ipynb"))
    tables = sorted((REPO / "benchmarks" / "results").glob("*/*.ja.md"))
    assert len(tables) > 10, f"only {len(tables)} Japanese benchmark tables"
    passes = _passes_dir()
    key = {page: hashlib.sha256(page.read_bytes()).hexdigest()[:32] for page in pages + notebooks + tables}
    todo = [page for page in pages if not (passes / key[page]).is_file()]
    prose: dict[Path, tuple[Path, list[tuple[int, int]]]] = {}  # written file -> (notebook, cell starts)
    for notebook in notebooks:
        if not (passes / key[notebook]).is_file():
            out = tmp_path / notebook.relative_to(DOCS).with_suffix(".md")
            prose[out] = (notebook, _notebook_prose(notebook, out))
    copies: dict[Path, Path] = {}  # written file -> table
    for table in tables:
        if not (passes / key[table]).is_file():
            out = tmp_path / "tables" / table.relative_to(REPO / "benchmarks" / "results")
            _table_prose(table, out)
            copies[out] = table
    if not todo and not prose and not copies:
        return
    proc = subprocess.run(
        [str(TEXTLINT), "--format", "json", *map(str, todo), *map(str, prose), *map(str, copies)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode in (0, 1), f"textlint failed to run:\n{proc.stderr}"
    results = json.loads(proc.stdout)
    checked = len(results)
    given = len(todo) + len(prose) + len(copies)
    assert checked == given, f"textlint checked {checked} of the {given} files it was given"

    def where(path: str, line: int) -> tuple[Path, str]:
        if Path(path) in prose:
            notebook, starts = prose[Path(path)]
            first, cell = max((s for s in starts if s[0] <= line), default=(1, 0))
            return notebook, f"{notebook.relative_to(DOCS)} (Markdown cell {cell}, its line {line - first + 1})"
        if Path(path) in copies:
            table = copies[Path(path)]
            return table, f"{table.relative_to(REPO)}:{line}"
        return Path(path), f"{Path(path).relative_to(DOCS)}:{line}"

    problems = [
        f"{where(r['filePath'], m['line'])[1]}:{m['column']} [{m['ruleId']}] " + m["message"].splitlines()[0]
        for r in results
        for m in r["messages"]
    ]
    passes.mkdir(parents=True, exist_ok=True)
    for r in results:
        if not r["messages"]:
            (passes / key[where(r["filePath"], 1)[0]]).touch()
    assert not problems, f"{len(problems)} style problems in {checked} Japanese pages (see STYLE.ja.md):\n" + "\n".join(problems)


def _prh_rules():
    import re

    import yaml

    rules = yaml.safe_load((REPO / "docs" / "prh.yml").read_text(encoding="utf-8"))["rules"]
    out = []
    for rule in rules:
        for pattern in rule.get("patterns") or [rule["pattern"]]:
            rx = re.compile(pattern[1:-1]) if pattern.startswith("/") and pattern.endswith("/") else re.compile(re.escape(pattern))
            out.append((rx, rule["expected"]))
    return out


def test_script_comments_follow_the_spelling_rules():
    """The Japanese comments of the example scripts (snippets/**/<name>.ja.toml) follow the same
    spelling rules as the pages (docs/prh.yml); textlint reads Markdown, so this applies them here."""
    from docs_tools import localize

    rules = _prh_rules()
    problems = []
    sidecars = sorted((REPO / "snippets").rglob(f"*{localize.SUFFIX}"))
    for sidecar in sidecars:
        for en, entry in localize.load(sidecar).items():
            ja = entry.get("ja") or ""
            for rx, expected in rules:
                m = rx.search(ja)
                if m:
                    problems.append(f"{sidecar.relative_to(REPO)}: {m.group(0)!r} -> {expected!r} in {ja[:60]!r}")
    assert len(sidecars) > 100
    assert not problems, "\n".join(problems)


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_generated_japanese_follows_the_spelling_rules():
    """textlint reads docs/ja only. The Japanese that the site generates from other files follows the
    same spelling rules (docs/prh.yml, issue 40): the benchmark catalog (benchmarks/catalog.py), the
    tables rendered from it (benchmarks/results/*/*.ja.md) and the support matrix's labels
    (docs/data/messages.ja.toml). 「NaN 同士」 in a column header and 「ISA 区分」 in the environment
    table were written where textlint did not look."""
    import tomllib

    from benchmarks.catalog import CATALOG

    rules = _prh_rules()
    texts = [(f"benchmarks/catalog.py {key}", text.ja) for key, text in CATALOG.items()]
    messages = REPO / "docs" / "data" / "messages.ja.toml"
    texts += [("docs/data/messages.ja.toml", s) for s in _strings(tomllib.loads(messages.read_text(encoding="utf-8")))]
    tables = sorted((REPO / "benchmarks" / "results").glob("*/*.ja.md"))
    texts += [(str(t.relative_to(REPO)), t.read_text(encoding="utf-8")) for t in tables]
    problems = [f"{where}: {m.group(0)!r} -> {expected!r}"
                for where, ja in texts for rx, expected in rules for m in [rx.search(ja)] if m]
    assert len(CATALOG) > 100 and len(tables) > 10
    assert not problems, "\n".join(problems)


def test_generated_tables_join_labels_the_japanese_way():
    """A Japanese summary table joins the parts of its first column with 「、」, not the English
    middle dot (「対象、dtype」, 「1024、float32」)."""
    tables = sorted((REPO / "benchmarks" / "results").glob("*/*.ja.md"))
    dotted = [str(t.relative_to(REPO)) for t in tables if " · " in t.read_text(encoding="utf-8")]
    assert not dotted, dotted


def test_table_cells_do_not_use_desu_masu():
    """STYLE.ja.md: table cells are noun-ended or plain form, never です・ます (textlint's
    no-mix-dearu-desumasu does not look inside tables). A cell such as 「(ここでは実行していません)」
    becomes 「(ここでは実行しない)」. Cells as markdown-it-py parses them (docs_model.table_cells),
    code spans left out."""
    polite = ("です", "ます", "ません", "ました", "でした", "ください")
    found = []
    for page in sorted((DOCS / "ja").rglob("*.md")):
        for line, prose in table_cells(page.read_text(encoding="utf-8")):
            if any(prose.endswith(p) or f"{p}。" in prose or f"{p}(" in prose or f"{p})" in prose for p in polite):
                found.append(f"{page.relative_to(DOCS)}:{line}: {prose[:80]}")
    assert not found, "table cells in です・ます (STYLE.ja.md 文体):\n" + "\n".join(found)


#: The first two open a sentence (「制約もあります。」 alone, an editor's find on torchao.md); the others are
#: caught anywhere in its first sentence (an editor read 「既定の設定にも落とし穴があり、…」 as the stock opening too).
STOCK_STARTS = ("ただし", "制約もあります")
STOCK_OPENINGS = ("落とし穴", "よくある誤りは", "つまずきやすいのは")


def _lead_paragraphs(text: str) -> list[tuple[int, str]]:
    """The prose paragraphs right under a page's title, up to its first heading or other block
    (1-based line, text), from markdown-it's tokens; an admonition or content tab ends the lead."""
    paragraphs: list[tuple[int, str]] = []
    tokens = _MD.parse(text)
    start = next((i for i, t in enumerate(tokens) if t.type == "heading_close" and t.tag == "h1"), None)
    for i in range(start + 1 if start is not None else len(tokens), len(tokens)):
        token = tokens[i]
        if token.level != 0 or token.type == "paragraph_close":
            continue
        if token.type != "paragraph_open":
            break
        content = tokens[i + 1].content
        if content.startswith(("!!!", "???", "===")):
            break
        paragraphs.append((token.map[0] + 1, " ".join(content.split("\n"))))
    return paragraphs


def test_the_lead_does_not_open_its_failures_with_a_stock_phrase():
    """STYLE.ja.md (ページの書き出し 2): the lead's paragraph on what goes wrong starts from the page's
    topic, not from 「ただし」「落とし穴もあります」「よくある誤りは」「つまずきやすいのは」 (a rewrite by an editor put one back
    on guide/tensors.md; a reviewer caught it). Checked in the first sentence of every paragraph of the
    lead after its first."""
    found = []
    for page in sorted((DOCS / "ja").rglob("*.md")):
        for line, paragraph in _lead_paragraphs(page.read_text(encoding="utf-8"))[1:]:
            first = paragraph.split("。", 1)[0]
            if first.startswith(STOCK_STARTS) or any(p in first for p in STOCK_OPENINGS):
                found.append(f"{page.relative_to(DOCS)}:{line}: {first[:60]}")
    assert not found, "a lead paragraph opens with a stock phrase (STYLE.ja.md ページの書き出し 2):\n" + "\n".join(found)
