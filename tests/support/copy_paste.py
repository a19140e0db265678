"""What a reader gets from the copy buttons of the built site, and running it as they would.

Material's copy button copies ``code.innerText`` of a code block with its annotations hidden
(``.md-annotation``, from ``# (1)!`` comments) and trailing whitespace trimmed
(``hs()`` in Material's bundle). :func:`copied_text` does the same on the built HTML;
tests/test_site.py checks it against the real clipboard in Chromium.

A page's Python blocks are matched, in order, with the ``python`` fences of its Markdown
source, which say what the HTML cannot: a GPU-only block (``<!--pytest.mark.cuda-->``, or an
included snippet with ``# requires: cuda``), an optional package
(``<!--pytest-codeblocks:importorskip(mod)-->``, ``# requires-module: mod``), whether the
text block after it is checked output. A fence titled with a file name
(```` ```python title="ddp_spawn.py" ````) is a "save as a file" example: the reader saves it
under that name and runs ``python ddp_spawn.py``, and so does the test.

Notebook pages: the code cells in order, as the notebook's own copy buttons give them
(mkdocs-jupyter's ``<clipboard-copy for="cell-N">``).

:func:`problems` compares what each block printed with the output shown under it using
:func:`tests.support.outputs.compare_outputs` (text exactly, numbers to the snippet's declared
tolerance), the same comparison as test_snippets.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from tests.support.outputs import Tolerance, compare_outputs, normalize_output, parse_tolerance
from tests.support.docs_model import REPO, parse_markdown
from tests.support.paste_driver import MARKER
from tests.support.snippets import expected_output_file, snippet_headers

ANNOTATION_COMMENT = re.compile(r"[ \t]*#\s*\(\d+\)!?[ \t]*$", re.M)
CUDA_MARKERS = ("pytest.mark.cuda",)
IMPORTORSKIP = re.compile(r"^pytest-codeblocks:importorskip\((?P<mod>\w+)\)$")
SKIPIF = re.compile(r"^pytest\.mark\.skipif\((?P<cond>.*),\s*reason=(?P<reason>.*)\)$")


@dataclass
class Block:
    index: int  # 1-based, among the page's Python blocks
    kind: str  # "paste" or "file"
    code: str  # exactly what the copy button gives
    title: str | None = None
    expected: str | None = None  # the checked output shown right after it, if any
    ignore_whitespace: bool = False
    skip: str | None = None  # reason, when not run on this machine
    timeout: int = 300
    allow_stderr: list[str] = field(default_factory=list)
    tolerance: Tolerance | None = None  # a snippet's declared output tolerance (README "Printed numbers")
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


def _module_missing(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is None


def _has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def markdown_plan(site: Path, lang: str, rel: str) -> list[Block]:
    md = parse_markdown((REPO / "docs" / lang / rel).read_text(encoding="utf-8"), lang, rel)
    lines = md.text.splitlines()
    html = html_code_blocks(_soup(page_html(site, lang, rel)))
    if len(html) != len(md.fences):
        raise AssertionError(
            f"docs/{lang}/{rel}: {len(md.fences)} fences in the Markdown but {len(html)} code blocks "
            "in the built page; cannot tell which is which"
        )
    all_fences = md.fences
    blocks = []
    for pos, (fence, (code_el, title)) in enumerate(zip(all_fences, html)):
        if not (fence.info == "python" or fence.info.startswith("python ")):
            continue
        following = html[pos + 1][0] if pos + 1 < len(html) else None
        block = Block(index=len(blocks) + 1, kind="file" if title else "paste", code=copied_text(code_el),
                      title=title, origin=f"docs/{lang}/{rel}:{fence.lineno}")
        include = fence.include
        headers = snippet_headers(REPO / include) if include else {}
        if include:
            block.origin = include
            block.timeout = int(headers.get("timeout", ["300"])[0])
            block.allow_stderr = headers.get("allow-stderr", [])
        # The checked output right after the block: an included .out, or an expected-output fence.
        nxt = all_fences[pos + 1] if pos + 1 < len(all_fences) else None
        if nxt is not None and nxt.info == "text" and following is not None:
            between = [ln.strip() for ln in lines[fence.lineno : nxt.lineno - 1] if ln.strip()]
            marker = between[-1] if between else ""
            checked = (include and nxt.include == include[:-3] + ".out") or marker.startswith(
                "<!--pytest-codeblocks:expected-output"
            )
            if checked:
                block.expected = following.get_text()
                if include:
                    # on a CPU class with its own recorded output (x.avx2.out), compare with that one
                    recorded = expected_output_file(REPO / include)
                    if recorded.name != PurePosixPath(include).with_suffix(".out").name:
                        block.expected = recorded.read_text(encoding="utf-8")
                    tolerance = headers.get("output-tolerance")
                    block.tolerance = parse_tolerance(tolerance[0]) if tolerance else None
                block.ignore_whitespace = "ignore-whitespace" in marker
        # Why this block may not run here.
        reasons = []
        if any(m in CUDA_MARKERS for m in fence.markers) or "cuda" in headers.get("requires", []):
            if not _has_cuda():
                reasons.append("needs a CUDA GPU")
        for m in fence.markers:
            if IMPORTORSKIP.match(m) and _module_missing(IMPORTORSKIP.match(m).group("mod")):
                reasons.append(f"needs {IMPORTORSKIP.match(m).group('mod')}")
            s = SKIPIF.match(m)
            if s and eval(s.group("cond"), {"sys": sys}):  # noqa: S307 - our own page markers
                reasons.append(eval(s.group("reason")))  # noqa: S307
        for mod in headers.get("requires-module", []):
            if _module_missing(mod):
                reasons.append(f"needs {mod}")
        block.skip = "; ".join(reasons) or None
        blocks.append(block)
    return blocks


def notebook_plan(site: Path, lang: str, rel: str) -> list[Block]:
    """A notebook's code cells as its copy buttons give them (mkdocs-jupyter's ``clipboard-copy``)."""
    soup = _soup(page_html(site, lang, rel))
    blocks = []
    for button in soup.select("article clipboard-copy[for]"):
        source = soup.find(id=button["for"])
        n = len(blocks) + 1
        blocks.append(Block(index=n, kind="paste", code=source.get_text(), origin=f"docs/{lang}/{rel} cell {n}"))
    return blocks


def page_plan(site: Path, lang: str, rel: str) -> list[Block]:
    return notebook_plan(site, lang, rel) if rel.endswith(".ipynb") else markdown_plan(site, lang, rel)


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


def plan_key(blocks: list[Block], files: dict[str, str]) -> str:
    """What must be equal for two languages' pages to be run once."""
    return json.dumps([[(b.kind, b.title, b.code, b.expected, b.skip) for b in blocks], files])


@dataclass
class Outcome:
    results: list[dict]
    stdout: dict[int, str]
    stderr: dict[int, str]
    returncode: int
    tail: str


def _split(text: str) -> dict[int, str]:
    parts: dict[int, str] = {}
    current = 0
    pattern = re.compile("^" + re.escape(MARKER).replace(r"\{index\}", r"(\d+)") + "$", re.M)
    pos = 0
    for m in pattern.finditer(text):
        parts[current] = parts.get(current, "") + text[pos : m.start()]
        current, pos = int(m.group(1)), m.end()
    parts[current] = parts.get(current, "") + text[pos:]
    return parts


def run_pasted(blocks: list[Block], workdir: Path, env: dict[str, str], timeout: int,
               files: dict[str, str] | None = None) -> Outcome:
    """Run the blocks in one fresh interpreter in ``workdir``, after saving the page's downloads there."""
    for name, text in (files or {}).items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(text, encoding="utf-8")
    plan = workdir.parent / f"{workdir.name}.plan.json"
    plan.write_text(json.dumps({"blocks": [asdict(b) for b in blocks]}), encoding="utf-8")
    try:
        proc = subprocess.run(
            [sys.executable, "-c", "from tests.support.paste_driver import main; main()", str(plan)],
            cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as err:
        out = err.stdout.decode() if isinstance(err.stdout, bytes) else (err.stdout or "")
        tail = err.stderr.decode() if isinstance(err.stderr, bytes) else (err.stderr or "")
        proc = subprocess.CompletedProcess(err.cmd, -9, out, tail + f"\n(still running after {timeout} s: stopped)")
    result_file = Path(str(plan) + ".result")
    results = json.loads(result_file.read_text(encoding="utf-8")) if result_file.exists() else []
    return Outcome(results, _split(proc.stdout), _split(proc.stderr), proc.returncode, proc.stderr[-3000:])


def problems(where: str, blocks: list[Block], outcome: Outcome) -> list[str]:
    """Everything a reader pasting these blocks would trip over, as messages."""
    by_index = {b.index: b for b in blocks}
    found = []
    done = {r["index"]: r for r in outcome.results}
    for r in outcome.results:
        if r["status"] == "failed":
            b = by_index[r["index"]]
            how = f"saved as {b.title} and run with `python {b.title}`" if b.kind == "file" else "pasted"
            found.append(f"{where}: block {b.index} ({b.origin}), {how}, raised:\n{r['error']}")
    if not found and len(done) < len(blocks):
        found.append(f"{where}: the interpreter died (exit {outcome.returncode}) after block "
                     f"{max(done, default=0)} of {len(blocks)}:\n{outcome.tail}")
    for index, text in outcome.stderr.items():
        b = by_index.get(index)
        if b is None or done.get(index, {}).get("status") != "ok":
            continue
        tolerated = [re.compile(p) for p in b.allow_stderr]
        stray = [ln for ln in text.splitlines() if ln.strip() and not any(p.search(ln) for p in tolerated)]
        if stray:
            found.append(f"{where}: block {index} ({b.origin}) wrote to stderr:\n" + "\n".join(stray))
    for b in blocks:
        if b.expected is None or done.get(b.index, {}).get("status") != "ok":
            continue
        shown = normalize_output(b.expected, b.ignore_whitespace)
        real = normalize_output(outcome.stdout.get(b.index, ""), b.ignore_whitespace)
        difference = None if shown == real else compare_outputs(shown, real, b.tolerance)
        if difference:
            found.append(f"{where}: block {b.index} ({b.origin}) printed something else than the output shown "
                         f"under it: {difference}\n--- shown\n{shown}\n"
                         f"--- printed when pasted after blocks 1-{b.index - 1}\n{real}")
    return found
