"""The key lines of a long listing, highlighted (hook; both language builds).

A page marks the lines that carry the point of a long example with pieces of their code
instead of line numbers: ```` ```python highlight="quantize_dynamic(|.eval()" ```` (plain text,
``|`` between pieces: a line is highlighted when it contains one of them). This hook
turns it into pymdownx.highlight's ``hl_lines`` for the code as this language's page
shows it: the Japanese page shows the script with Japanese comments, which can take more
or fewer lines (localize.py), so the same lines have other numbers there. The fence info
is the same in both languages (tests/test_parity.py), and the lines stay right when the
script changes. A piece that is in no line fails the build. (Plain text rather than a regular
expression: jupytext, which mkdocs-jupyter runs over the pages, reads ``key="value"`` in a fence
as Python and warns about backslashes.) The fences are those of the one Markdown parser the tests
use too (docs_tools.docs_model, markdown-it-py).
"""

from __future__ import annotations

import re

from _common import REPO, whole_snippet
from localize import localized
from mkdocs.exceptions import PluginError

from docs_tools.docs_model import parse_markdown

HIGHLIGHT = re.compile(r'^python highlight="(?P<pattern>[^"]*)"$')


def key_lines(code: str, pattern: str) -> list[int]:
    """1-based numbers of the lines of ``code`` that contain one of the ``|``-separated pieces of
    ``pattern``; raises PluginError naming a piece that is in no line."""
    pieces = [p for p in pattern.split("|") if p]
    lines = code.splitlines()
    missing = [p for p in pieces if not any(p in line for line in lines)]
    if missing or not pieces:
        raise PluginError(f"highlight: {missing or pattern!r} is in no line of the code")
    return [n for n, line in enumerate(lines, 1) if any(p in line for p in pieces)]


def _ranges(numbers: list[int]) -> str:
    out, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            out.append(str(start) if start == n else f"{start}-{n}")
            start = None
    return " ".join(out)


def on_page_markdown(markdown, page, config, files, **kwargs):
    if 'python highlight="' not in markdown:
        return markdown
    lines = markdown.split("\n")
    for fence in parse_markdown(markdown).fences:
        m = HIGHLIGHT.match(fence.info)
        if not m:
            continue
        i = fence.lineno - 1
        if lines[fence.end_lineno - 1].strip() != fence.fence:
            raise PluginError(f"{page.file.src_uri}:{i + 1}: an unclosed fence")
        include = whole_snippet(fence)
        code = localized(REPO / include, config).read_text(encoding="utf-8") if include else fence.body
        try:
            numbers = key_lines(code, m["pattern"])
        except PluginError as error:
            raise PluginError(f"{page.file.src_uri}:{i + 1}: {error}") from error
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        lines[i] = f"{indent}{fence.fence}python hl_lines=\"{_ranges(numbers)}\""
    return "\n".join(lines)
