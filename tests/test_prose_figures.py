"""Every figure the pages write in words has a source, and says what the source says.

A *figure* is a number with a unit or a ratio word, in the prose or a table of a page or a notebook's
markdown (both languages): ``3.8×``, ``1 %``, ``16 bits``, ``2.1 ms``, ``3.8 分の 1``, ``2 倍``
(docs_tools/figures.py finds them with the Markdown model: not in code, comments, link targets or
heading ids). Each one is, in this order:

1. in a section that another test checks number by number (``[checked_sections]`` of
   ``docs/data/figures.toml``: the benchmarks page's Findings, tests/test_result_claims.py);
2. declared for its page in ``docs/data/figures.toml`` with its source: a file and how to read the
   value there (a regex or a JSON path), a Python expression (a dtype's size, from torch itself), or
   an upstream link (a vendor's or PyTorch's published number);
3. or, with two or more significant digits, one of the numbers of the outputs its section shows: an
   included ``.out`` file, an inline expected output, a benchmark table and its JSON; rounded to the
   figure's decimals and in its unit. A figure restating an output of another section is declared.

Figures written before this check existed and not yet tied to a source are listed one by one in
the file's ``[pending]`` table (known debt, which only shrinks). A figure that is none of these fails, and so does a declared figure that its page no longer writes
(in either language) or that its source contradicts. The support matrix is data of its own
(``docs/data/support_matrix.*``) and is not read here.
"""

from __future__ import annotations

import functools
import re

import pytest

from docs_tools.docs_model import DOCS, REPO, notebook_markdown, page_files
from docs_tools.figures import (
    FIGURES_FILE,
    Declared,
    figure_key,
    figures,
    load_declared,
    load_pending,
    output_values,
    rounds_to,
    section_outputs,
    shown,
    source_value,
)

#: Pages whose figures are data checked elsewhere.
EXCLUDED = {"support-matrix.md": "the support matrix is rendered from docs/data/support_matrix.* (its own tests)"}

PAGES = [rel for rel in page_files("en") if rel.endswith((".md", ".ipynb")) and rel not in EXCLUDED]
DECLARED, CHECKED_SECTIONS = load_declared()
PENDING = load_pending()


def _key(figure: str) -> tuple[float, str]:
    return Declared(page="", figure=figure, source="", why="").key


def _text(lang: str, rel: str) -> str:
    """A page's Markdown (a notebook's markdown cells)."""
    path = DOCS / lang / rel
    return notebook_markdown(path) if rel.endswith(".ipynb") else path.read_text(encoding="utf-8")


@functools.cache
def _written(lang: str, rel: str) -> frozenset[tuple[float, str]]:
    """The figures (number, unit) a page writes."""
    return frozenset(figure_key(f) for f in figures(_text(lang, rel))) if (DOCS / lang / rel).exists() else frozenset()


def unsourced(lang: str, rel: str) -> list[str]:
    """The figures of one page that nothing ties to a source, as 'line N (#section): figure'."""
    text = _text(lang, rel)
    declared = {d.key for d in DECLARED if d.page in (rel, "*")} | {_key(f) for f in PENDING.get(rel, ())}
    outputs = section_outputs(text)
    problems = []
    for f in figures(text):
        if f"{rel}#{f.section}" in CHECKED_SECTIONS or figure_key(f) in declared:
            continue
        if shown(f, output_values(outputs.get(f.section, []))):
            continue
        problems.append(f"line {f.lineno} (#{f.section}): {f.text!r}")
    return problems


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("rel", PAGES)
def test_every_figure_has_a_source(lang, rel):
    if not (DOCS / lang / rel).exists():
        pytest.skip(f"docs/{lang}/{rel} is not written yet (tests/test_parity.py asks for it)")
    problems = unsourced(lang, rel)
    assert not problems, (
        f"docs/{lang}/{rel}: figures with no source (not among the outputs this page shows, not declared in "
        f"{FIGURES_FILE.relative_to(REPO)}):\n  " + "\n  ".join(problems) + "\nDeclare each with the file that "
        "proves it (pattern or json), an expression (source = \"expr\") or its upstream link; if the number "
        "changed, check it against its source and correct the sentence in both languages."
    )


def _declared_id(d) -> str:
    return f"{d.page}:{d.figure}".replace("×", "x").replace(" ", "")


@pytest.mark.parametrize("decl", DECLARED, ids=_declared_id)
def test_declared_figure_is_what_its_source_says(decl):
    assert decl.why, f"{_declared_id(decl)}: say what the figure is (why = ...)"
    if decl.page != "*":
        # written on at least one of the two pages: English often says in words what Japanese writes
        # in digits ("twice" / 「2 倍」, "per second" / 「1 秒あたり」); the numbers above 10 and the
        # decimals are the same in both languages (tests/test_parity_numbers.py)
        written = {lang: _written(lang, decl.page) for lang in ("en", "ja")}
        assert any(decl.key in w for w in written.values()), (
            f"docs/{{en,ja}}/{decl.page} no longer write {decl.figure} ({decl.why}); if the sentence changed on "
            f"purpose, change the declaration in {FIGURES_FILE.relative_to(REPO)} after checking the source; "
            "if not, restore the figure its source gives"
        )
    if decl.source.startswith("https://"):
        return  # an upstream figure: the link is its source
    if decl.source == "quoted":
        return  # a claim the page quotes as a mistake: "why" says which
    assert (decl.source == "expr") == (decl.expr is not None), f"{_declared_id(decl)}: expr goes with source = \"expr\""
    if decl.source != "expr":
        assert (REPO / decl.source).is_file(), f"{_declared_id(decl)}: no file {decl.source}"
        assert (decl.pattern is None) != (decl.json is None), f"{_declared_id(decl)}: give a pattern or a json path"
    value = source_value(decl)
    number, _ = decl.key
    if decl.at_least:
        assert value >= number, f"{_declared_id(decl)}: the source gives {value}, less than the page's bound {number}"
    elif decl.at_most:
        assert value <= number, f"{_declared_id(decl)}: the source gives {value}, more than the page's bound {number}"
    else:
        f = type("F", (), {"decimals": decl.decimals, "value": number})
        assert rounds_to(value, f), (
            f"{_declared_id(decl)}: the source ({decl.source}) gives {value!r}, which the page would write "
            f"{value:.{decl.decimals}f}: correct the sentence in both languages (or the declaration)"
        )


def test_checked_sections_name_a_test_that_exists():
    for where, test in CHECKED_SECTIONS.items():
        rel, _, section = where.partition("#")
        path, _, name = test.partition("::")
        assert re.search(rf"(?m)^def {re.escape(name)}\(", (REPO / path).read_text(encoding="utf-8")), (where, test)
        for lang in ("en", "ja"):
            assert f"{{#{section}}}" in _text(lang, rel), f"docs/{lang}/{rel} has no section #{section}"


@pytest.mark.parametrize("rel", sorted(PENDING))
def test_pending_figures_are_still_written(rel):
    """The known debt only shrinks: a pending figure that its page no longer writes is taken off the list."""
    assert rel in PAGES, f"{FIGURES_FILE.name} [pending]: {rel} is not a page"
    written = _written("en", rel) | _written("ja", rel)
    gone = [f for f in PENDING[rel] if _key(f) not in written]
    assert not gone, f"{FIGURES_FILE.name} [pending] {rel}: no longer written, take them off the list: {gone}"
    declared = {d.key for d in DECLARED if d.page in (rel, "*")}
    both = [f for f in PENDING[rel] if _key(f) in declared]
    assert not both, f"{FIGURES_FILE.name} [pending] {rel}: declared with a source now, take them off the list: {both}"


def test_no_declaration_is_for_a_missing_page_or_repeated():
    seen = set()
    for d in DECLARED:
        assert d.page in PAGES or d.page == "*", f"{FIGURES_FILE.name}: {d.page} is not a page (or is excluded)"
        assert (d.page, d.key) not in seen, f"{FIGURES_FILE.name}: {d.page} {d.figure} declared twice"
        seen.add((d.page, d.key))


def test_the_catalog_of_figures_finds_figures():
    """The extractor itself: what it takes for a figure and what it leaves."""
    text = (
        "# T {#t}\n\nThe weights are 3.8× smaller, within 1 % and 2.1 ms; float16 has 16 bits.\n"
        "`x = 5 %` is code, [a 4× link](x.md#4x), torch 2.13.0, H100 and sm_90 are names.\n\n"
        "| a | 38 KB |\n\n重みは 3.8 分の 1、速度は 2 倍、10 ミリ秒、30 分。\n\n"
        "At twice the rate, eight times more, 6 × 10−8 and 300 × 300 are not ratios; it runs twice.\n"
        "A span `wrapped over\n2 lines` is code, and NVIDIA H100 80GB HBM3 a name.\n"
    )
    assert [f.text for f in figures(text)] == ["3.8×", "1 %", "2.1 ms", "16 bits", "4×", "38 KB", "3.8 分の 1",
                                               "2 倍", "10 ミリ秒", "30 分", "2×", "8×"]
