"""Two languages, one truth beyond code: numbers, footnotes, links and images section by section.

tests/test_parity.py holds the code, headings and structure of the two languages equal. This file
holds what the prose says equal too, per section (heading id; docs_tools/figures.py reads the
prose, tables and admonitions with the Markdown model, outside code and comments):

- the numbers: a figure changed on one page ("3.8×" → "3.5×", "65519" → "65521") fails;
- the footnote references, link targets and image targets.

Each is compared block by block (a paragraph, a list, an admonition body, a heading, a table row:
these correspond one to one between the languages; where a section's blocks do not, over the whole
section), as a multiset, not as a sequence: Japanese puts the parts of a sentence in another order
than English ("at n = 1024, A is 3× faster" is 「n = 1024 では A が 3 倍速い」), so the order of two
numbers in a sentence is not the same in both languages; every number, its value and how many times
the block writes it, is. Integers from 0 to 10 written alone are not compared:
English writes small counts as words ("two layers", "twice", "half") where Japanese writes digits
(「2 つの層」「2 倍」); the figures among them (``8 bits``, ``4×``) are tied to their sources in both
languages by tests/test_prose_figures.py. Full-width digits and 万 are normalised
(docs_tools.figures.normalise); thousands separators are dropped.

The comments and docstrings of every script (snippets/**/*.py) are translated in its
``<name>.ja.toml``: each entry's Japanese has the numbers of its English (small counts aside, as on the pages).
"""

from __future__ import annotations

import collections
import tokenize
import tomllib

import pytest

from docs_tools.docs_model import (
    DOCS,
    REPO,
    SNIPPETS,
    notebook_cells,
    notebook_markdown,
    page,
    page_files,
)
from docs_tools.figures import FOOTNOTE, LINK, numbers, sections
from docs_tools.localize import units

PAGES = [rel for rel in page_files("en") if rel.endswith(".md") and (DOCS / "ja" / rel).exists()]
NOTEBOOKS = [rel for rel in page_files("en") if rel.endswith(".ipynb") and (DOCS / "ja" / rel).exists()]


def compared(prose: str) -> list[str]:
    """The numbers of a prose line that must be the same in both languages (see the module's docstring)."""
    return [n for n in numbers(prose) if not (n.isdigit() and int(n) <= 10)]


KINDS = ("numbers", "footnotes", "links", "images")


def _kinds(raw: str, prose: str) -> dict[str, collections.Counter]:
    kinds = {k: collections.Counter() for k in KINDS}
    kinds["numbers"].update(compared(prose))
    kinds["footnotes"].update(FOOTNOTE.findall(raw))
    for m in LINK.finditer(raw):
        kinds["images" if m.group(1) else "links"][m.group(2)] += 1
    return kinds


def by_section(lang: str, rel: str) -> dict[str, list[tuple[int, dict[str, collections.Counter]]]]:
    """Per section id, its blocks in order (paragraph, list, admonition body, heading, table row:
    docs_tools.figures.sections), each as (line, the numbers, footnote references, link targets and image
    targets it writes); a notebook: its markdown cells."""
    path = DOCS / lang / rel
    text = notebook_markdown(path) if rel.endswith(".ipynb") else path.read_text(encoding="utf-8")
    out: dict[str, list[tuple[int, dict[str, collections.Counter]]]] = {}
    for block in sections(text):
        out.setdefault(block.section, []).append((block.lineno, _kinds(block.raw, block.prose)))
    return out


def _total(blocks: list[tuple[int, dict[str, collections.Counter]]]) -> dict[str, collections.Counter]:
    total = {k: collections.Counter() for k in KINDS}
    for _, kinds in blocks:
        for k in KINDS:
            total[k] += kinds[k]
    return total


def _differences(where: str, ja: dict[str, collections.Counter], en: dict[str, collections.Counter]) -> list[str]:
    return [f"{where} {kind}: only in en {dict(en[kind] - ja[kind])}, only in ja {dict(ja[kind] - en[kind])}"
            for kind in KINDS if ja[kind] != en[kind]]


@pytest.mark.parametrize("rel", PAGES + NOTEBOOKS)
def test_same_numbers_links_and_footnotes_per_section(rel):
    """Block by block where both languages have the same blocks in a section (paragraphs, lists and table
    rows correspond one to one on these pages), else over the whole section."""
    ja, en = by_section("ja", rel), by_section("en", rel)
    problems = []
    for section in sorted(set(ja) | set(en)):
        j, e = ja.get(section, []), en.get(section, [])
        if len(j) == len(e):
            for (line_ja, kinds_ja), (line_en, kinds_en) in zip(j, e, strict=True):
                problems += _differences(f"#{section} (en line {line_en}, ja line {line_ja})", kinds_ja, kinds_en)
        else:
            problems += _differences(f"#{section} ({len(e)} blocks in en, {len(j)} in ja)", _total(j), _total(e))
    assert not problems, (
        f"{rel}: the two languages differ (docs/en/{rel} vs docs/ja/{rel}); correct the page that is wrong, "
        "prefer digits in both languages (then run `python -m docs_tools.translations --update docs/ja/" + rel + "`):\n  "
        + "\n  ".join(problems)
    )


def _comment_numbers(code: str) -> list[collections.Counter]:
    """Per comment or docstring of a Python block, the numbers it writes (small counts aside)."""
    try:
        return [collections.Counter(compared(u.text)) for u in units(code)]
    except (SyntaxError, tokenize.TokenError):
        return []


def _python(info: str) -> bool:
    return info == "python" or info.startswith("python ")


@pytest.mark.parametrize("rel", PAGES + NOTEBOOKS)
def test_comments_written_on_the_page_have_the_same_numbers(rel):
    """The Python blocks written on the pages (not included) and the notebooks' code cells comment in each
    language: the n-th comment of a block has the numbers of its counterpart in the other language."""
    def blocks(lang: str) -> list[str]:
        if rel.endswith(".ipynb"):
            return ["".join(c["source"]) for c in notebook_cells(DOCS / lang / rel) if c["cell_type"] == "code"]
        return [f.body for f in page(lang, rel).fences if _python(f.info) and not f.include]

    problems = []
    for n, (ja, en) in enumerate(zip(blocks("ja"), blocks("en"), strict=False), 1):
        cj, ce = _comment_numbers(ja), _comment_numbers(en)
        if len(cj) != len(ce):
            continue  # the comments are split differently; tests/test_parity.py holds the code equal
        for i, (a, b) in enumerate(zip(cj, ce), 1):
            if a != b:
                problems.append(f"block {n}, comment {i}: only in en {dict(b - a)}, only in ja {dict(a - b)}")
    assert not problems, f"{rel}: comments whose numbers differ between docs/en and docs/ja:\n  " + "\n  ".join(problems)


TOMLS = sorted(p.relative_to(REPO).as_posix() for p in SNIPPETS.rglob("*.ja.toml"))


@pytest.mark.parametrize("path", TOMLS)
def test_japanese_comments_have_the_numbers_of_the_english(path):
    data = tomllib.loads((REPO / path).read_text(encoding="utf-8"))
    problems = []
    for entries in data.values():
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if not isinstance(entry, dict) or "en" not in entry or "ja" not in entry:
                continue
            en, ja = collections.Counter(compared(entry["en"])), collections.Counter(compared(entry["ja"]))
            if en != ja:
                problems.append(f"{entry['en'][:60]!r}: only in en {dict(en - ja)}, only in ja {dict(ja - en)}")
    assert not problems, f"{path}: Japanese comments whose numbers differ from the English:\n  " + "\n  ".join(problems)


def test_the_parity_model_reads_links_footnotes_and_numbers():
    text = ("# T {#t}\n\nSee [a](x.md#y) and ![b](img/z.svg \"t\")[^1], 65519 rounds, 2 layers, 3.8× and 1,024.\n"
            "`65521` is code <!-- 99 -->\n")
    (line,) = [ln for ln in sections(text) if "See" in ln.raw]
    assert compared(line.prose) == ["65519", "3.8", "1024"]
    assert FOOTNOTE.findall(line.raw) == ["1"]
    assert [(m.group(1), m.group(2)) for m in LINK.finditer(line.raw)] == [("", "x.md#y"), ("!", "img/z.svg")]
