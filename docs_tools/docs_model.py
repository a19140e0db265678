"""What the tests and the docs build know about the site: pages, fences, headings, includes, nav.

Both languages are read the same way, so the parity, lint and doc-block tests and the build
hooks all agree on what a "code block" is. Code fences are found by ONE parser,
markdown-it-py's CommonMark parser (:func:`code_fences`); the bodies of Material's admonitions
(``!!!``/``???``) and content tabs (``===``), indented 4 spaces under their header, are
de-indented first (:func:`_open_containers`), so a fence inside them is a fence, not an
indented code block. Everything else that reads "outside code" (prose lints, translations,
Japanese reflow) asks :func:`fence_lines`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
SNIPPETS = REPO / "snippets"
LANGS = ("ja", "en")
CONFIGS = {"ja": REPO / "mkdocs.yml", "en": REPO / "mkdocs.en.yml"}

HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<text>.*?)\s*$")
HEADING_ID = re.compile(r"\{[^}]*#(?P<id>[A-Za-z0-9_.:-]+)[^}]*\}\s*$")
MARKER = re.compile(r"^\s*<!--\s*(?P<body>pytest[.\-].*?)\s*-->\s*$")
INCLUDE = re.compile(r'^\s*--8<--\s+"(?P<path>[^"]+)"\s*$')
ADMONITION = re.compile(r"^\s*(?P<kind>!!!|\?\?\?\+?)\s+(?P<type>[a-z]+)")
TAB = re.compile(r'^\s*===\+?\s+"')
CONTAINER = re.compile(r"^(?P<indent>[ ]*)(?:(?:!!!|\?\?\?\+?|===\+?)\s.*|:[ ]{3}(?P<definition>\S.*))$")


# --- the one fence parser -----------------------------------------------------

_MD = MarkdownIt("commonmark")


@dataclass(frozen=True)
class RawFence:
    """A fenced code block as markdown-it-py sees it (0-based lines, ``end`` exclusive, closing fence included)."""

    start: int
    end: int
    markup: str  # ``` or ~~~ (length kept)
    info: str  # info string, stripped
    body: str  # content, de-indented, "\n"-terminated (empty for an empty fence)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _open_containers(lines: list[str]) -> list[str]:
    """The lines with admonition/tab headers blanked and their bodies de-indented by 4 (same line count).

    Material's admonitions and tabs (pymdownx) and definition lists (``:   text``) are not
    CommonMark: to CommonMark their 4-space bodies are indented code or paragraph
    continuations. Nested containers are opened in turn.
    """
    out = list(lines)
    i = 0
    fence: str | None = None
    while i < len(out):
        line = out[i]
        stripped = line.strip()
        if fence is not None:  # inside a top-level fence: leave it alone
            if stripped.startswith(fence) and stripped.strip(fence[0]) == "":
                fence = None
            i += 1
            continue
        if stripped.startswith(("```", "~~~")) and _indent(line) < 4:
            fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
            i += 1
            continue
        m = CONTAINER.match(line)
        if m:
            indent = len(m.group("indent"))
            out[i] = m.group("indent") + m.group("definition") if m.group("definition") else ""
            j = i + 1
            while j < len(out) and (not out[j].strip() or _indent(out[j]) >= indent + 4):
                if out[j].strip():
                    out[j] = out[j][:indent] + out[j][indent + 4 :]
                j += 1
        i += 1
    return out


@cache
def code_fences(text: str) -> tuple[RawFence, ...]:
    """Every fenced code block of a Markdown text, in order, wherever it sits (lists, admonitions, tabs)."""
    lines = _open_containers(text.splitlines())
    tokens = _MD.parse("\n".join(lines) + "\n")
    return tuple(
        RawFence(t.map[0], t.map[1], t.markup, t.info.strip(), t.content)
        for t in tokens
        if t.type == "fence" and t.map
    )


_MD_TABLES = MarkdownIt("commonmark").enable("table")


def table_cells(text: str) -> list[tuple[int, str]]:
    """(1-based line of the row, the cell's prose) for every table cell of a Markdown text, wherever the
    table sits (admonitions, tabs): the cell's text without its code spans, as markdown-it-py parses it
    (a ``|`` inside a code span does not split the cell; a table inside a fence is not a table)."""
    tokens = _MD_TABLES.parse("\n".join(_open_containers(text.splitlines())) + "\n")
    cells, row, in_cell = [], 0, False
    for t in tokens:
        if t.type == "tr_open" and t.map:
            row = t.map[0] + 1
        elif t.type in ("td_open", "th_open"):
            in_cell = True
        elif t.type in ("td_close", "th_close"):
            in_cell = False
        elif t.type == "inline" and in_cell:
            prose = "".join(c.content for c in t.children or [] if c.type == "text")
            cells.append((row, prose.strip()))
    return cells


def fence_lines(text: str) -> set[int]:
    """0-based indexes of the lines that belong to a code fence (its opening and closing lines included)."""
    return {i for f in code_fences(text) for i in range(f.start, f.end)}


@dataclass(frozen=True)
class Fence:
    page: str  # path relative to docs/<lang>
    lang: str
    lineno: int  # 1-based line of the opening fence
    fence: str  # ``` or ~~~ (length kept)
    info: str  # info string, stripped ("python", "text", 'python title="x"', ...)
    body: str  # dedented content
    markers: tuple[str, ...]  # <!--pytest...--> comments directly above
    end_lineno: int = 0  # 1-based line of the closing fence (the last line of the page if unclosed)

    @property
    def include(self) -> str | None:
        """The included path if the whole body is one ``--8<--`` line, else None."""
        lines = [ln for ln in self.body.splitlines() if ln.strip()]
        if len(lines) == 1:
            m = INCLUDE.match(lines[0])
            if m:
                return m.group("path")
        return None


@dataclass
class Page:
    lang: str
    rel: str
    text: str
    fences: list[Fence] = field(default_factory=list)
    headings: list[tuple[int, str | None, str]] = field(default_factory=list)  # (level, id, text)
    structure: list[str] = field(default_factory=list)  # admonition types, tabs, includes, markers


def parse_markdown(text: str, lang: str = "", rel: str = "") -> Page:
    page = Page(lang, rel, text)
    lines = text.splitlines()
    fences = {f.start: f for f in code_fences(text)}
    inside = fence_lines(text)
    pending_markers: list[str] = []
    for i, line in enumerate(lines):
        if i in fences:
            f = fences[i]
            page.fences.append(Fence(rel, lang, i + 1, f.markup, f.info, f.body, tuple(pending_markers), f.end))
            pending_markers = []
            continue
        if i in inside:
            continue
        marker = MARKER.match(line)
        if marker:
            pending_markers.append(marker.group("body"))
            page.structure.append("marker:" + marker.group("body"))
        elif line.strip():
            pending_markers = []
        h = HEADING.match(line)
        if h:
            hid = HEADING_ID.search(h.group("text"))
            page.headings.append((len(h.group("hashes")), hid.group("id") if hid else None, h.group("text")))
        a = ADMONITION.match(line)
        if a:
            page.structure.append(f"admonition:{a.group('type')}")
        if TAB.match(line):
            page.structure.append("tab")
        inc = INCLUDE.match(line)
        if inc:
            page.structure.append("include:" + inc.group("path"))
    return page


EXPECTED_OUTPUT = "pytest-codeblocks:expected-output"


def expected_outputs(page: Page) -> list[Fence]:
    """The outputs a page shows as checked: every ``text`` fence that includes a ``.out`` file or
    stands under ``<!--pytest-codeblocks:expected-output-->`` (the copy-paste test must compare
    each one whose block runs)."""
    return [f for f in page.fences if f.info == "text"
            and ((f.include or "").endswith(".out") or EXPECTED_OUTPUT in f.markers)]


def page_files(lang: str) -> list[str]:
    root = DOCS / lang
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if p.suffix in {".md", ".ipynb"} and p.is_file()
    )


RESULTS_DIR = "benchmarks/results/"


def results_include_counterpart(path: str) -> str:
    """The English include a Japanese page's include stands for.

    Japanese pages include the Japanese benchmark table ``benchmarks/results/<dev>/<case>.ja.md``
    where English pages include ``<case>.md``; every other include must be the same path.
    """
    if path.startswith(RESULTS_DIR) and path.endswith(".ja.md"):
        return path.removesuffix(".ja.md") + ".md"
    return path


def results_include_problems(page: Page) -> list[str]:
    """Benchmark tables included in the wrong language (a ja page must include ``<case>.ja.md``)."""
    problems = []
    for item in page.structure:
        path = item.removeprefix("include:")
        if not item.startswith("include:") or not path.startswith(RESULTS_DIR) or not path.endswith(".md"):
            continue
        japanese = path.endswith(".ja.md")
        if page.lang == "ja" and not japanese:
            problems.append(
                f"docs/ja/{page.rel} includes the English table {path}; include "
                f"{path.removesuffix('.md')}.ja.md (written by the bench command, "
                "`python -m benchmarks --render-only` rewrites it)"
            )
        elif page.lang != "ja" and japanese:
            problems.append(f"docs/{page.lang}/{page.rel} includes the Japanese table {path}; include "
                            f"{results_include_counterpart(path)}")
    return problems


@cache
def page(lang: str, rel: str) -> Page:
    return parse_markdown((DOCS / lang / rel).read_text(encoding="utf-8"), lang, rel)


def markdown_pages() -> list[Page]:
    return [page(lang, rel) for lang in LANGS for rel in page_files(lang) if rel.endswith(".md")]


def notebook_cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


class _Loader(yaml.SafeLoader):
    """YAML loader that tolerates MkDocs' custom tags (!relative, !ENV)."""


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def load_config(lang: str) -> dict:
    return yaml.load(CONFIGS[lang].read_text(encoding="utf-8"), Loader=_Loader)


def nav_files(nav) -> list[str]:
    """The page files of a nav tree, in order (titles dropped)."""
    out: list[str] = []
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        for item in nav:
            out += nav_files(item)
    elif isinstance(nav, dict):
        for value in nav.values():
            out += nav_files(value)
    return out


# --- Japanese line wrapping -------------------------------------------------
# A line break inside a paragraph renders as a space; between Japanese
# characters that space is visible ("など)は 非推奨"). Japanese paragraphs must
# not be hard-wrapped. docs_tools/reflow_ja.py joins such lines.

_BLOCK_START = re.compile(r"^\s*([-*+]\s|\d+\.\s|\||#|!!!|\?\?\?|===|<!--|:::|:\s{3}|```|~~~|--8<--|$)")


def _is_cjk(ch: str) -> bool:
    return bool(ch) and (
        "\u3000" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"
    )


def wrapped_prose_lines(text: str) -> list[int]:
    """0-based indexes of lines that continue the previous line's paragraph across a CJK boundary."""
    lines = text.splitlines()
    inside = fence_lines(text)
    hits = []
    for i in range(1, len(lines)):
        prev, line = lines[i - 1], lines[i]
        if i in inside or i - 1 in inside or not prev.strip() or _BLOCK_START.match(line):
            continue
        if prev.lstrip().startswith(("|", "#", "```", "<!--", "--8<--", ":::", "!!!", "???", "===")):
            continue
        if _is_cjk(prev.rstrip()[-1:]) or _is_cjk(line.lstrip()[:1]):
            hits.append(i)
    return hits


# --- Prose ------------------------------------------------------------------
# What a reader reads as sentences: a page's text without fenced code, inline
# code, include lines, HTML comments, link targets and heading ids. The
# wording lints (jargon, glossary, typography) look only at this.

_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LINK_TARGET = re.compile(r"\]\((?:[^()\s]|\([^()]*\))*\)")
_HEADING_ID_ANY = re.compile(r"\{[^}]*#[A-Za-z0-9_.:-]+[^}]*\}")
_MATH = re.compile(r"\$\$.*?\$\$|\\\(.*?\\\)", re.S)


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, prose) for every line outside code fences, with code spans etc. removed.

    Inline code becomes a placeholder "`code`" (so two words around it stay apart) and a
    link ``[text](target)`` keeps ``[text]`` and becomes ``[text]()``.
    """
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    text = _MATH.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    out = []
    inside = fence_lines(text)
    for i, line in enumerate(text.splitlines(), 1):
        if i - 1 in inside:
            continue
        if INCLUDE.match(line):
            continue
        line = _INLINE_CODE.sub("`code`", line)
        line = _LINK_TARGET.sub("]()", line)
        line = _HEADING_ID_ANY.sub("", line)
        out.append((i, line))
    return out


def notebook_markdown(path: Path) -> str:
    """The markdown cells of a notebook, one after another (blank line between cells)."""
    return "\n\n".join("".join(c["source"]) for c in notebook_cells(path) if c["cell_type"] == "markdown")


def prose_sources(lang: str) -> list[tuple[str, str]]:
    """(name, markdown text) of every page, notebook's markdown cells, and the README, for one language."""
    out = []
    for rel in page_files(lang):
        path = DOCS / lang / rel
        text = notebook_markdown(path) if rel.endswith(".ipynb") else path.read_text(encoding="utf-8")
        out.append((f"docs/{lang}/{rel}", text))
    return out
