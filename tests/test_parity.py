"""Two languages, one truth: same pages, same nav, same heading ids, same code.

Only prose may differ. Code (every fence, includes, test markers), the heading
ids and levels, admonition types and tab counts must be identical, and notebooks
must have the same code cells. Python code is compared token by token without its
comments and docstrings, which the Japanese pages write in Japanese
(docs_tools.localize; the included snippet files get theirs from ``<name>.ja.toml``).
"""

from __future__ import annotations

import difflib
import re
import tokenize

import pytest

from docs_tools.docs_model import (
    DOCS,
    load_config,
    nav_files,
    notebook_cells,
    page,
    page_files,
    results_include_counterpart,
    results_include_problems,
)
from docs_tools.localize import code_tokens, has_japanese, units


def test_same_pages_in_both_languages():
    ja, en = set(page_files("ja")), set(page_files("en"))
    assert ja == en, f"only in ja: {sorted(ja - en)}; only in en: {sorted(en - ja)}"


def test_same_nav_in_both_languages():
    ja, en = nav_files(load_config("ja")["nav"]), nav_files(load_config("en")["nav"])
    assert ja == en, "\n".join(difflib.unified_diff(ja, en, "mkdocs.yml nav", "mkdocs.en.yml nav", lineterm=""))


def test_every_page_is_in_the_nav():
    in_nav = set(nav_files(load_config("ja")["nav"]))
    pages = set(page_files("ja"))
    assert pages <= in_nav, f"pages missing from the nav: {sorted(pages - in_nav)}"


SHARED = sorted(set(page_files("ja")) & set(page_files("en")))


def _diff(a, b, what):
    return f"{what} differ between ja and en:\n" + "\n".join(
        difflib.unified_diff([repr(x) for x in a], [repr(x) for x in b], "ja", "en", lineterm="")
    )


@pytest.mark.parametrize("rel", [r for r in SHARED if r.endswith(".md")])
def test_same_headings(rel):
    ja = [(level, hid) for level, hid, _ in page("ja", rel).headings]
    en = [(level, hid) for level, hid, _ in page("en", rel).headings]
    assert ja == en, _diff(ja, en, f"{rel}: heading levels/ids")


SHELL_INFOS = ("console", "shell", "bash", "sh", "powershell")


def shell_comment(line: str) -> int | None:
    """Where a shell comment starts on ``line`` (a ``#`` at the start or after a blank, outside
    quotes), or None."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return None


def shell_without_comments(body: str) -> str:
    """A shell block's commands: its comments (in the page's language) and the blanks before them removed."""
    out = []
    for line in body.splitlines():
        at = shell_comment(line)
        out.append(line if at is None else line[:at].rstrip())
    return "\n".join(out)


def _program(info: str, body: str):
    """What must be equal in both languages: a Python block's code tokens (its comments and
    docstrings are in the page's language, docs_tools.localize), a shell block's commands without
    their comments, any other block's text."""
    if info == "python" or info.startswith("python "):
        try:
            return code_tokens(body)
        except (SyntaxError, tokenize.TokenError):
            return body
    if info.split(" ")[0] in SHELL_INFOS:
        return shell_without_comments(body)
    return body


@pytest.mark.parametrize("rel", [r for r in SHARED if r.endswith(".md")])
def test_same_code(rel):
    ja = [(f.info, _program(f.info, f.body), f.markers) for f in page("ja", rel).fences]
    en = [(f.info, _program(f.info, f.body), f.markers) for f in page("en", rel).fences]
    assert ja == en, _diff(ja, en, f"{rel}: code blocks (Python compared token by token, without comments and docstrings; shell blocks without comments)")


def _english_comments(code: str) -> list[str]:
    """Comments and docstrings without Japanese that hold English words (two or more words of
    letters only: ``# x.shape == (2, 3)`` is code and may stay)."""
    try:
        found = units(code)
    except (SyntaxError, tokenize.TokenError):
        return []
    return [u.text for u in found if not has_japanese(u.text) and len(re.findall(r"(?<![\w.])[A-Za-z]{2,}(?![\w.(])", u.text)) >= 2]


@pytest.mark.parametrize("rel", [r for r in SHARED if r.endswith(".md")])
def test_japanese_pages_comment_in_japanese(rel):
    """Comments and docstrings of the Python blocks written on a Japanese page are Japanese."""
    english = [
        f"line {f.lineno}: {text[:70]!r}"
        for f in page("ja", rel).fences
        if (f.info == "python" or f.info.startswith("python ")) and not f.include
        for text in _english_comments(f.body)
    ]
    assert not english, f"docs/ja/{rel}: English comments in Python blocks:\n" + "\n".join(english)


@pytest.mark.parametrize("rel", [r for r in SHARED if r.endswith(".md")])
def test_same_structure(rel):
    # A Japanese page includes the Japanese benchmark table (<case>.ja.md) where the English one has <case>.md.
    ja = [
        "include:" + results_include_counterpart(item.removeprefix("include:")) if item.startswith("include:") else item
        for item in page("ja", rel).structure
    ]
    en = page("en", rel).structure
    assert ja == en, _diff(ja, en, f"{rel}: admonitions/tabs/includes/markers")


@pytest.mark.parametrize("rel", [r for r in SHARED if r.endswith(".md")])
def test_benchmark_tables_are_in_the_page_language(rel):
    problems = results_include_problems(page("ja", rel)) + results_include_problems(page("en", rel))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("rel", [r for r in SHARED if r.endswith(".ipynb")])
def test_same_notebook_code(rel):
    def code(lang):
        return [_program("python", "".join(c["source"])) for c in notebook_cells(DOCS / lang / rel) if c["cell_type"] == "code"]

    def kinds(lang):
        return [c["cell_type"] for c in notebook_cells(DOCS / lang / rel)]

    assert code("ja") == code("en"), _diff(code("ja"), code("en"), f"{rel}: code cells")
    assert kinds("ja") == kinds("en"), _diff(kinds("ja"), kinds("en"), f"{rel}: cell sequence")


@pytest.mark.parametrize("rel", [r for r in SHARED if r.endswith(".ipynb")])
def test_japanese_notebooks_comment_in_japanese(rel):
    english = [
        f"cell {i}: {text[:70]!r}"
        for i, c in enumerate(notebook_cells(DOCS / "ja" / rel))
        if c["cell_type"] == "code"
        for text in _english_comments("".join(c["source"]))
    ]
    assert not english, f"docs/ja/{rel}: English comments in code cells:\n" + "\n".join(english)
