"""What the tests know about the site: pages, fences, headings, includes, nav.

Both languages are read the same way, so the parity, lint and doc-block tests
all agree on what a "code block" is.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
SNIPPETS = REPO / "snippets"
LANGS = ("ja", "en")
CONFIGS = {"ja": REPO / "mkdocs.yml", "en": REPO / "mkdocs.en.yml"}

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
HEADING = re.compile(r"^(?P<hashes>#{1,6})\s+(?P<text>.*?)\s*$")
HEADING_ID = re.compile(r"\{[^}]*#(?P<id>[A-Za-z0-9_.:-]+)[^}]*\}\s*$")
MARKER = re.compile(r"^\s*<!--\s*(?P<body>pytest[.\-].*?)\s*-->\s*$")
INCLUDE = re.compile(r'^\s*--8<--\s+"(?P<path>[^"]+)"\s*$')
ADMONITION = re.compile(r"^\s*(?P<kind>!!!|\?\?\?\+?)\s+(?P<type>[a-z]+)")
TAB = re.compile(r'^\s*===\+?\s+"')


@dataclass(frozen=True)
class Fence:
    page: str  # path relative to docs/<lang>
    lang: str
    lineno: int  # 1-based line of the opening fence
    fence: str  # ``` or ~~~ (length kept)
    info: str  # info string, stripped ("python", "text", 'python title="x"', ...)
    body: str  # dedented content
    markers: tuple[str, ...]  # <!--pytest...--> comments directly above

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
    pending_markers: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = FENCE_OPEN.match(line)
        if m:
            indent, fence, info = m.group("indent"), m.group("fence"), m.group("info").strip()
            body = []
            j = i + 1
            while j < len(lines):
                closing = lines[j].strip()
                if closing.startswith(fence[0] * len(fence)) and closing.strip(fence[0]) == "":
                    break
                body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
                j += 1
            page.fences.append(
                Fence(rel, lang, i + 1, fence, info, "\n".join(body) + ("\n" if body else ""), tuple(pending_markers))
            )
            pending_markers = []
            i = j + 1
            continue
        if MARKER.match(line):
            pending_markers.append(MARKER.match(line).group("body"))
            page.structure.append("marker:" + MARKER.match(line).group("body"))
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
        i += 1
    return page


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


def codeblocks_extract(text: str):
    """Blocks as pytest-codeblocks itself sees them (markers, expected output, cont)."""
    from pytest_codeblocks import extract_from_buffer

    return extract_from_buffer(io.StringIO(text))


# --- Japanese line wrapping -------------------------------------------------
# A line break inside a paragraph renders as a space; between Japanese
# characters that space is visible ("など)は 非推奨"). Japanese paragraphs must
# not be hard-wrapped. tests/support/reflow_ja.py joins such lines.

_BLOCK_START = re.compile(r"^\s*([-*+]\s|\d+\.\s|\||#|!!!|\?\?\?|===|<!--|:::|:\s{3}|```|~~~|--8<--|$)")


def _is_cjk(ch: str) -> bool:
    return bool(ch) and (
        "\u3000" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"
    )


def wrapped_prose_lines(text: str) -> list[int]:
    """0-based indexes of lines that continue the previous line's paragraph across a CJK boundary."""
    lines = text.splitlines()
    hits = []
    in_fence = False
    for i in range(1, len(lines)):
        prev, line = lines[i - 1], lines[i]
        if FENCE_OPEN.match(prev):
            in_fence = not in_fence
        if in_fence or FENCE_OPEN.match(line) or not prev.strip() or _BLOCK_START.match(line):
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
    fence = None
    for i, line in enumerate(text.splitlines(), 1):
        m = FENCE_OPEN.match(line)
        if fence is None and m:
            fence = m.group("fence")
            continue
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and stripped.strip(fence[0]) == "":
                fence = None
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
