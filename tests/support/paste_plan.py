"""What a reader gets from the copy buttons of the built site, and what each block must print.

Material's copy button copies ``code.innerText`` of a code block with its annotations hidden
(``.md-annotation``, from ``# (1)!`` comments) and trailing whitespace trimmed
(``hs()`` in Material's bundle). :func:`copied_text` does the same on the built HTML;
tests/test_site.py checks it against the real clipboard in Chromium.

A page's Python blocks are matched, in order, with the ``python`` fences of its Markdown
source (docs_tools.docs_model, the one markdown-it-py parser) and the included snippets'
sidecars (``snippets/<dir>/<name>.test.toml``, read with :func:`docs_tools.snippets.snippet_meta`),
which say what the HTML cannot: a GPU-only block (``<!--pytest.mark.cuda-->``, or
``requires = ["cuda"]``), an optional package (``requires-module = ["mod"]``; skipped when the
reader venv lacks it), the stderr lines it may print, its timeout, the ``[[tolerance]]`` rules
of its output, whether the text block after it is checked output. A fence titled with a file name
(```` ```python title="ddp_spawn.py" ````) is a "save as a file" example: the reader saves it
under that name and runs ``python ddp_spawn.py``, and so does the test.

Notebook pages: the code cells in order, as the notebook's own copy buttons give them
(mkdocs-jupyter's ``<clipboard-copy for="cell-N">``).

:func:`outputs_on_page` counts, from the Markdown model alone, the outputs the page shows as
checked (an included ``.out``, or a ``text`` fence under ``<!--pytest-codeblocks:expected-output-->``);
copy_paste.run_page fails a page whose run compared fewer.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from docs_tools.docs_model import REPO, Page, expected_outputs, page, parse_markdown
from docs_tools.localize import code_tokens
from docs_tools.outputs import Rule
from docs_tools.snippets import snippet_meta, tolerance_rules

ANNOTATION_COMMENT = re.compile(r"[ \t]*#\s*\(\d+\)!?[ \t]*$", re.M)
CUDA_MARKERS = ("pytest.mark.cuda",)
FENCE_TITLE = re.compile(r'\btitle="(?P<title>[^"]+)"')
SKIPIF = re.compile(r"^pytest\.mark\.skipif\((?P<cond>.*),\s*reason=(?P<reason>.*)\)$")


@dataclass
class Block:
    index: int  # 1-based, among the page's Python blocks
    kind: str  # "paste" or "file"
    code: str  # exactly what the copy button gives
    title: str | None = None
    expected: str | None = None  # the checked output shown right after it, if any
    skip: str | None = None  # reason, when not run on this machine
    timeout: int = 300
    allow_stderr: list[str] = field(default_factory=list)
    tolerance: list[Rule] = field(default_factory=list)  # the snippet's [[tolerance]] rules (README "Printed numbers")
    origin: str = ""  # "docs/en/x.md:12" or "snippets/a/b.py"


def copied_text(code_el) -> str:
    """The text Material's copy button puts on the clipboard for a ``<code>`` element."""
    from copy import copy

    el = copy(code_el)
    for annotation in el.select(".md-annotation"):
        annotation.decompose()
    text = el.get_text()
    # Before Material's script runs, an annotation is still its "# (1)!" comment.
    text = ANNOTATION_COMMENT.sub("", text)
    return text.rstrip()


@lru_cache(maxsize=8)
def _soup(path: Path):
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def page_html(site: Path, lang: str, rel: str) -> Path:
    stem = rel.rsplit(".", 1)[0]
    return site / lang / ("" if stem == "index" else stem.removesuffix("/index")) / "index.html"


def html_code_blocks(soup):
    """(code element, title or None) for every code block of the page's content, in order.

    pymdownx.highlight gives the blocks no language class, so the caller matches them
    with the page's Markdown fences, in order.
    """
    out = []
    for div in soup.select("article div.highlight"):
        title = div.select_one("span.filename")
        out.append((div.select_one("pre code"), title.get_text().strip() if title else None))
    return out


def _module_present_here(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def _has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def markdown_plan(site: Path, lang: str, rel: str,
                  has_module: Callable[[str], bool] = _module_present_here) -> list[Block]:
    """The page's Python blocks; ``has_module`` says whether the Python that runs them has a module."""
    md = parse_markdown((REPO / "docs" / lang / rel).read_text(encoding="utf-8"), lang, rel)
    return plan_blocks(md, html_code_blocks(_soup(page_html(site, lang, rel))), has_module)


def plan_blocks(md: Page, html: list, has_module: Callable[[str], bool] = _module_present_here) -> list[Block]:
    """The Python blocks of the page ``md`` whose built code blocks are ``html`` (:func:`html_code_blocks`)."""
    lines = md.text.splitlines()
    if len(html) != len(md.fences):
        raise AssertionError(
            f"docs/{md.lang}/{md.rel}: {len(md.fences)} fences in the Markdown but {len(html)} code blocks "
            "in the built page; cannot tell which is which"
        )
    all_fences = md.fences
    blocks = []
    for pos, (fence, (code_el, shown_title)) in enumerate(zip(all_fences, html)):
        if not (fence.info == "python" or fence.info.startswith("python ")):
            continue
        following = html[pos + 1][0] if pos + 1 < len(html) else None
        # "Save as name.py": the fence's title (a title bar the build adds elsewhere is not one).
        m = FENCE_TITLE.search(fence.info)
        title = m.group("title") if m else None
        if title and title != shown_title:
            raise AssertionError(f"docs/{md.lang}/{md.rel}:{fence.lineno}: the block titled {title!r} shows "
                                 f"{shown_title!r} as its title in the built page")
        block = Block(index=len(blocks) + 1, kind="file" if title else "paste", code=copied_text(code_el),
                      title=title, origin=f"docs/{md.lang}/{md.rel}:{fence.lineno}")
        include = fence.include
        meta = snippet_meta(include) if include else None  # its sidecar snippets/<dir>/<name>.test.toml
        if meta is not None:
            block.origin = include
            block.timeout = meta.timeout
            block.allow_stderr = [a.pattern for a in meta.allow_stderr]
        # The checked output right after the block: an included .out, or an expected-output fence.
        nxt = all_fences[pos + 1] if pos + 1 < len(all_fences) else None
        if nxt is not None and nxt.info == "text" and following is not None:
            between = [ln.strip() for ln in lines[fence.lineno : nxt.lineno - 1] if ln.strip()]
            marker = between[-1] if between else ""
            checked = (include and nxt.include == include[:-3] + ".out") or marker == "<!--pytest-codeblocks:expected-output-->"
            if checked:
                block.expected = following.get_text()
                if meta is not None:
                    block.tolerance = tolerance_rules(meta)
        # Why this block may not run here.
        reasons = []
        if any(m in CUDA_MARKERS for m in fence.markers) or (meta is not None and "cuda" in meta.requires):
            if not _has_cuda():
                reasons.append("needs a CUDA GPU")
        for mod in dict.fromkeys(meta.requires_module if meta is not None else ()):
            if not has_module(mod):
                reasons.append(f"needs {mod} (optional, named on the page; not installed)")
        for m in fence.markers:
            s = SKIPIF.match(m)
            if s and eval(s.group("cond"), {"sys": sys}):  # noqa: S307 - our own page markers
                reasons.append(eval(s.group("reason")))  # noqa: S307
        block.skip = "; ".join(reasons) or None
        blocks.append(block)
    return blocks


def outputs_on_page(lang: str, rel: str) -> int:
    """How many checked outputs the page shows, by the Markdown model (0 for a notebook)."""
    return 0 if rel.endswith(".ipynb") else len(expected_outputs(page(lang, rel)))


def notebook_plan(site: Path, lang: str, rel: str) -> list[Block]:
    """A notebook's code cells as its copy buttons give them (mkdocs-jupyter's ``clipboard-copy``)."""
    soup = _soup(page_html(site, lang, rel))
    blocks = []
    for button in soup.select("article clipboard-copy[for]"):
        source = soup.find(id=button["for"])
        n = len(blocks) + 1
        blocks.append(Block(index=n, kind="paste", code=source.get_text(), origin=f"docs/{lang}/{rel} cell {n}"))
    return blocks


def page_plan(site: Path, lang: str, rel: str,
              has_module: Callable[[str], bool] = _module_present_here) -> list[Block]:
    if rel.endswith(".ipynb"):
        return notebook_plan(site, lang, rel)
    return markdown_plan(site, lang, rel, has_module)


def page_data_files(site: Path, lang: str, rel: str) -> dict[str, str]:
    """Files the page tells the reader to download and where to put them (``data-save-as``)."""
    html = page_html(site, lang, rel)
    files = {}
    for link in _soup(html).select("article a[data-save-as]"):
        target = (html.parent / link["href"]).resolve()
        if not target.is_file():
            raise AssertionError(f"docs/{lang}/{rel}: the download {link['href']} is not in the built site")
        files[link["data-save-as"]] = target.read_text(encoding="utf-8")
    return files


def _program(code: str):
    try:
        return code_tokens(code)
    except (SyntaxError, tokenize.TokenError):
        return code


def plan_key(blocks: list[Block], files: dict[str, str]) -> str:
    """What must be equal for two languages' pages to be run once: the blocks' code tokens
    (comments and docstrings are in the page's language), titles, outputs and skips."""
    return json.dumps([[(b.kind, b.title, _program(b.code), b.expected, b.skip) for b in blocks], files])


def skipped_blocks(where: str, blocks: list[Block], langs: list[str]) -> list[dict]:
    """The blocks not run, for the run's list of exceptions (one entry per block, counting each language)."""
    return [{"page": where, "block": b.index, "origin": b.origin, "reason": b.skip, "languages": len(langs)}
            for b in blocks if b.skip]


def skip_summary(records: list[dict]) -> str:
    """The skipped blocks by reason, with counts (each language's block counted once)."""
    by_reason: dict[str, list[dict]] = {}
    for r in records:
        by_reason.setdefault(r["reason"], []).append(r)
    total = sum(r["languages"] for r in records)
    lines = [f"copy-paste: {total} blocks not run in the reader venv (both languages counted):"]
    for reason, rs in sorted(by_reason.items(), key=lambda kv: -sum(r["languages"] for r in kv[1])):
        lines.append(f"  {sum(r['languages'] for r in rs):3d}  {reason}")
        lines += [f"         {r['page']} block {r['block']} ({r['origin']})" for r in rs]
    return "\n".join(lines)
