"""Nothing on a page escapes the tests (rules in tests/support/docs_lint.py)."""

from __future__ import annotations

import posixpath
import re

import pytest

from tests.support.docs_lint import (
    fence_problems,
    heading_problems,
    japanese_typography_problems,
    japanese_wrap_problems,
    list_indent_problems,
    optional_package_problems,
    jargon_problems,
    quoted_heading_problems,
    install_command_problems,
    third_party_assets,
)
from docs_tools.docs_model import CONFIGS, DOCS, LANGS, REPO, SNIPPETS, markdown_pages, prose_sources

PAGES = markdown_pages()


def _id(page):
    return f"{page.lang}/{page.rel}"


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_fences_are_all_tested(page):
    problems = fence_problems(page)
    assert not problems, "\n".join(problems)


def test_optional_packages_are_named_above_their_blocks():
    problems = [p for page in PAGES for p in optional_package_problems(page)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_headings_have_explicit_ids(page):
    missing = heading_problems(page)
    assert not missing, "headings need an explicit {#id} so anchors match across languages:\n" + "\n".join(missing)


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_list_items_keep_their_lines(page):
    # 2026-11-30: "At 2 bits they take\n  6144. The 16 generated tokens..." rendered 6144 as a new
    # item and lost the number; quoted messages indented by 2 spaces left their bullets (review cx)
    hits = list_indent_problems(page)
    assert not hits, "Python-Markdown would move these lines out of their list item:\n" + "\n".join(hits)


@pytest.mark.parametrize("page", [p for p in PAGES if p.lang == "ja"], ids=_id)
def test_japanese_paragraphs_are_not_hard_wrapped(page):
    hits = japanese_wrap_problems(page)
    assert not hits, (
        "a line break inside a Japanese paragraph renders as a visible space; "
        f"run `python -m docs_tools.reflow_ja docs/ja/{page.rel}`:\n" + "\n".join(hits)
    )


def test_no_third_party_assets():
    """Pages must not pull images/scripts from other hosts (the site makes no third-party requests)."""
    hits = [hit for page in PAGES for hit in third_party_assets(page)]
    assert not hits, "\n".join(hits)


DIAGRAM_LINK = re.compile(r"\]\(((?:\.\./)*snippets/diagrams/[\w-]+\.py)\)")


def test_every_snippet_is_shown_with_its_output():
    includes_by_lang = {lang: set() for lang in LANGS}
    for page in PAGES:
        for item in page.structure:
            if item.startswith("include:"):
                includes_by_lang[page.lang].add(item.removeprefix("include:"))
        for f in page.fences:
            if f.include:
                includes_by_lang[page.lang].add(f.include)
        # A diagram script (snippets/diagrams/) draws a figure and is not an example: the page links
        # it under its figure for download instead of showing 100 lines of matplotlib.
        for link in DIAGRAM_LINK.findall(page.text):
            includes_by_lang[page.lang].add(posixpath.normpath(posixpath.join(posixpath.dirname(page.rel), link)))
    problems = []
    for path in sorted(SNIPPETS.rglob("*")):
        if path.suffix not in {".py", ".out"}:
            continue
        rel = str(path.relative_to(REPO))
        for lang in LANGS:
            if rel not in includes_by_lang[lang]:
                problems.append(f"{rel} is not shown on any docs/{lang} page")
        if path.suffix == ".out" and not path.with_suffix(".py").exists():
            problems.append(f"{rel} has no script next to it")
    # Where a page shows a script that has checked output, it shows the output too.
    for page in PAGES:
        shown = {f.include for f in page.fences if f.include}
        for inc in shown:
            out = inc[:-3] + ".out" if inc.endswith(".py") else None
            if out and (REPO / out).exists() and out not in shown:
                problems.append(f"docs/{page.lang}/{page.rel} shows {inc} but not its checked output {out}")
    assert not problems, "\n".join(problems)


def test_docs_tree_has_only_the_two_languages():
    # data: what the pages render from or are checked against (figures, the support matrix, its labels)
    extra = sorted(p.name for p in DOCS.iterdir()
                   if p.is_dir() and p.name not in {*LANGS, "overrides", "hooks", "includes", "data"})
    assert not extra, f"unexpected folders in docs/: {extra}"


PROSE = {lang: prose_sources(lang) for lang in LANGS}


@pytest.mark.parametrize("lang", LANGS)
def test_pages_stand_on_their_own(lang):
    """No "the seed article"/元記事: readers never saw it. Pages, notebooks' markdown, nav titles, README."""
    sources = PROSE[lang] + [(str(CONFIGS[lang].relative_to(REPO)), CONFIGS[lang].read_text(encoding="utf-8"))]
    if lang == "en":
        sources.append(("README.md", (REPO / "README.md").read_text(encoding="utf-8")))
    problems = [p for name, text in sources for p in jargon_problems(name, text)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name,text", PROSE["ja"], ids=[name for name, _ in PROSE["ja"]])
def test_japanese_emphasis_and_links_have_no_splitting_spaces(name, text):
    problems = japanese_typography_problems(name, text)
    assert not problems, (
        "a space next to ** / * or after a link shows as a gap inside a Japanese sentence; "
        f"`python -m docs_tools.typography_ja {name}` removes them:\n" + "\n".join(problems)
    )



@pytest.mark.parametrize("lang", LANGS)
def test_quoted_section_titles_are_the_headings_they_link_to(lang):
    """「[title](page.md#id)」の節 / "[Title](page.md#id)": the quoted text is the heading the link
    lands on, in the same language (pages and notebooks' markdown)."""
    problems = [p for name, text in PROSE[lang] for p in quoted_heading_problems(name, text, lang)]
    assert not problems, "\n".join(problems)


def test_the_quoted_title_check_catches_a_title_no_page_has():
    """The home page's old text (issue 40), a missing anchor and a missing page all fail; the
    heading itself and an English title in another case pass."""
    bad = [
        "理由は「[1.23 は実際に何になるか](storage/half-vs-float.md#what-1-23-becomes)」の節で説明しています。",
        "「[1.23 が実際に格納される値](storage/half-vs-float.md#no-such-id)」",
        "「[ない](storage/no-such-page.md)」",
    ]
    for line in bad:
        assert quoted_heading_problems("docs/ja/index.md", line, "ja"), line
    assert not quoted_heading_problems(
        "docs/ja/index.md", "「[1.23 が実際に格納される値](storage/half-vs-float.md#what-1-23-becomes)」", "ja")
    assert not quoted_heading_problems(
        "docs/en/index.md", '"[what 1.23 really becomes](storage/half-vs-float.md#what-1-23-becomes)"', "en")



@pytest.mark.parametrize("lang", LANGS)
def test_install_commands_are_the_readers(lang):
    """No `pip install -e .` (readers have the wheel, not the repository) and no `pip install torch==`
    without PyTorch's index URL (on Linux that is the CUDA build), in pages or notebooks."""
    problems = [p for name, text in PROSE[lang] for p in install_command_problems(name, text)]
    assert not problems, "\n".join(problems)
    assert install_command_problems("x", "Install it with `pip install -e .` (after `pip install torch==2.13.0`).")


# The support matrix's cells and their sources: tests/test_support_matrix.py (they are data now).


# Python-Markdown's list parser (the one MkDocs uses): an item that starts right after an item with a
# paragraph of its own (indented four spaces) and no blank line between them is read as text of that
# paragraph, so the reader sees "... only. - **From 2.10 ...**" where a list item was meant.
LIST_EXTENSIONS = ["attr_list", "md_in_html", "admonition", "pymdownx.superfences", "pymdownx.details", "def_list",
                   "tables", "footnotes"]


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_no_list_item_is_swallowed_by_the_paragraph_above(page):
    import markdown

    html = markdown.markdown((DOCS / page.lang / page.rel).read_text(encoding="utf-8"), extensions=LIST_EXTENSIONS)
    swallowed = [m.group(0)[-160:] for m in re.finditer(r"<p>(?:(?!</p>).)*?\s- <(?:strong|code|a )", html, re.S)]
    assert not swallowed, (f"docs/{page.lang}/{page.rel}: a list item rendered as text of the paragraph above it "
                           "(add a blank line before the item):\n" + "\n".join(swallowed))
