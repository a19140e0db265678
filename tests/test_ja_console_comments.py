"""No English for the reader on a Japanese page, in the places the Python comment check misses.

``tests/test_parity.py`` checks the comments and docstrings of the Python blocks written on a
Japanese page, and ``docs_tools.localize`` those of the included scripts. Two places stay:

* shell blocks (``console``, ``bash`` ...): their comments (``cmd  # why``) are prose for the
  reader; ``test_parity.test_same_code`` compares the commands without them;
* the words after a pragma (``# noqa: F401  (why)``, ``# type: ignore[x] - why``), on the page or
  in an included script (the Japanese script, as the site shows it).
"""

from __future__ import annotations

import re
import tokenize

import pytest

from docs_tools.docs_model import DOCS, REPO, notebook_cells, page, page_files
from docs_tools.localize import PRAGMA, PRAGMA_TEXT, Unit, has_japanese, load, localize, sidecar_path, units
from tests.test_parity import SHELL_INFOS, shell_comment, shell_without_comments

PAGES = sorted(r for r in page_files("ja") if r.endswith(".md"))
NOTEBOOKS = sorted(r for r in page_files("ja") if r.endswith(".ipynb"))


def _english(text: str) -> bool:
    """Words for a reader, in English: no Japanese and two or more words of letters
    (``# x.shape == (2, 3)`` or ``# 0,1`` is code and may stay)."""
    return not has_japanese(text) and len(re.findall(r"(?<![\w.])[A-Za-z]{2,}(?![\w.(])", text)) >= 2


def shell_comments(body: str) -> list[str]:
    found = []
    for line in body.splitlines():
        at = shell_comment(line)
        if at is not None and not line.startswith("#!"):
            found.append(line[at:].lstrip("#").strip())
    return found


def pragma_texts(code: str) -> list[str]:
    """The words after the pragmas of a Python program."""
    try:
        return [u.text for u in units(code) if u.kind == "pragma"]
    except (SyntaxError, tokenize.TokenError):
        return []


def _python(info: str) -> bool:
    return info == "python" or info.startswith("python ")


def _shell(info: str) -> bool:
    return info.split(" ")[0] in SHELL_INFOS


def _shown_script(include: str) -> str | None:
    """An included Python script as the Japanese site shows it (with its ``.ja.toml`` texts)."""
    path = REPO / include.split(":")[0]
    if path.suffix != ".py" or not path.exists():
        return None
    source = path.read_text(encoding="utf-8")
    sidecar = sidecar_path(path)
    return localize(source, load(sidecar), partial=True) if sidecar.exists() else source


@pytest.mark.parametrize("rel", PAGES)
def test_shell_comments_in_japanese(rel):
    english = [
        f"line {f.lineno}: {text[:70]!r}"
        for f in page("ja", rel).fences
        if _shell(f.info) and not f.include
        for text in shell_comments(f.body)
        if _english(text)
    ]
    assert not english, f"docs/ja/{rel}: English comments in shell blocks:\n" + "\n".join(english)


@pytest.mark.parametrize("rel", PAGES)
def test_text_after_pragmas_in_japanese(rel):
    english = []
    for f in page("ja", rel).fences:
        if not _python(f.info):
            continue
        code = _shown_script(f.include) if f.include else f.body
        for text in pragma_texts(code or ""):
            if _english(text):
                english.append(f"line {f.lineno}{' (' + f.include + ')' if f.include else ''}: {text[:70]!r}")
    assert not english, f"docs/ja/{rel}: English words after a pragma:\n" + "\n".join(english)


@pytest.mark.parametrize("rel", NOTEBOOKS)
def test_notebook_text_after_pragmas_in_japanese(rel):
    english = [
        f"cell {i}: {text[:70]!r}"
        for i, c in enumerate(notebook_cells(DOCS / "ja" / rel))
        if c["cell_type"] == "code"
        for text in pragma_texts("".join(c["source"]))
        if _english(text)
    ]
    assert not english, f"docs/ja/{rel}: English words after a pragma:\n" + "\n".join(english)


# The checks themselves, on made-up blocks: each must see what it is for.

def test_shell_comment_found_outside_quotes_only():
    assert shell_comments('echo "a # b"  # say it\n# whole line\ncurl http://x/#frag') == ["say it", "whole line"]
    assert shell_without_comments("pip install x   # why\n# alone\nls") == "pip install x\n\nls"


def test_english_shell_comment_is_caught_and_japanese_is_not():
    assert _english("keep running after logout (Linux / macOS)")
    assert not _english("ログアウト後も実行を続ける(Linux / macOS)")
    assert not _english("0,1")


def test_pragma_text_is_a_unit_and_bare_pragmas_are_not():
    code = (
        "import a  # noqa: F401  (removed; still imported)\n"
        "import b  # noqa: F401\n"
        "x = 1  # type: ignore[assignment] - the stub is wrong\n"
        "def f():  # pragma: no cover\n"
        "    pass\n"
    )
    assert pragma_texts(code) == ["(removed; still imported)", "the stub is wrong"]
    assert PRAGMA.match("# noqa: F401  (why)") and PRAGMA_TEXT.match("# noqa: F401  (why)")
    assert not PRAGMA_TEXT.match("# pragma: no cover")


def test_pragma_text_is_localized_and_the_pragma_kept():
    code = "import a  # noqa: F401  (removed)\n"
    unit = units(code)[0]
    assert isinstance(unit, Unit) and unit.kind == "pragma"
    table = {"(removed)": {"en": "(removed)", "ja": "(削除済み)"}}
    assert localize(code, table) == "import a  # noqa: F401  (削除済み)\n"
