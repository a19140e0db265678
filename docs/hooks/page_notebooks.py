"""Every page with Python code as a notebook readers download (hook; both language builds).

Each Markdown page with a ```` ```python ```` fence gets ``<page folder>/<name>.ipynb`` (``name``:
the page's path with ``-`` for ``/``, e.g. ``amp-autocast.ipynb``) and a link to it under its title
("このページをノートブック(…)でダウンロード" / "Download this page as a notebook (…)", class
``page-notebook-download``, ``data-search-exclude`` like the reader-package note: the same line on
every page, kept out of the search index). Notebook pages (``*.ipynb``) keep their own notebook
(downloads.py links it).

The notebook is made as the copy-paste test plans its run (tests/support/paste_plan.py
``plan_blocks``: the page's python fences matched with its built code blocks, each block's code
exactly as the copy button gives it, on the Japanese site with the Japanese comments; the build
imports no test code, so :func:`page_blocks` does the same here, and tests/test_page_notebooks.py
checks each notebook against the test's own plan), so what the test runs pasted is what the
notebook holds:

* one code cell per block, in page order, its source the copied text byte for byte;
* a block titled with a file name ("save as ``name.py`` and run ``python name.py``") becomes a
  ``%%writefile name.py`` cell with the copied text, then a cell that runs it with the kernel's
  Python, ``!{sys.executable} name.py``: what the test does (``python name.py`` in the page's folder);
* the output the page shows under a block (an included ``.out`` recorded by a real run, or a
  checked expected-output block) is the cell's output, as a ``stdout`` stream, without an execution
  count; a block that shows none has none;
* Markdown cells: the page's title with a link back to the page, what to install and the files to
  download first (``data-save-as`` links), each section heading before its first block, and a note
  before a block that needs a CUDA GPU or an optional package (as the page says in its tab or
  admonition). Shell commands (``console`` fences) are left out: the page shows them and the tests
  do not run them, so a notebook cell would run what nothing checks.

The hook reads the tree the earlier hooks share (_common.page_tree; no parse of its own) and runs
after the hooks that edit code (api_labels.py) and before harness_check.py, which writes the tree
back. tests/test_page_notebooks.py checks each notebook against the copy-paste plan of the built page
and runs some in a Jupyter kernel in the reader virtualenv.
"""

from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass
from pathlib import Path

from _common import edited, label, lang, page_tree
from mkdocs.exceptions import PluginError

from docs_tools.docs_model import EXPECTED_OUTPUT, HEADING, fence_lines, parse_markdown
from docs_tools.snippets import snippet_meta

LINK_LABEL = {"ja": "このページをノートブック({name})でダウンロード", "en": "Download this page as a notebook ({name})"}
INTRO = {
    "ja": (
        "このノートブックは、ページ「[{title}]({url})」のコードを、ページと同じ順に並べたものです。"
        "各セルのコードは、ページのコピーボタンでコピーされるものと同じです。"
        "セルの下の出力は、ページに載せている出力(テストで実行して確かめたもの)です。"
        "コードの説明はページにあります。"
    ),
    "en": (
        "This notebook holds the code of the page [{title}]({url}), block by block in the page's order, "
        "each cell exactly what the page's copy button copies. The outputs under the cells are those the "
        "page shows (checked by running it). The page explains them."
    ),
}
INSTALL = {
    "ja": "実行する前に、[インストールの手順]({install})のとおり torch {torch} を入れてください。",
    "en": "Before running it, install torch {torch} as the [install page]({install}) says.",
}
INSTALL_PACKAGE = {
    "ja": "このノートブックは reference_impl パッケージも使います。[同じページの手順]({install})で {wheel} もインストールしてください。",
    "en": "It uses the reference_impl package too: install {wheel} as [that page]({install}) says.",
}
DATA_FILES = {
    "ja": "ノートブックと同じフォルダに、次のファイルをダウンロードしておいてください。",
    "en": "Download these files into the notebook's folder first:",
}
DATA_FILE = {"ja": "- [{name}]({url}) を `{save_as}` として保存します。", "en": "- [{name}]({url}), saved as `{save_as}`"}
FILE_BLOCK = {
    "ja": "次のセルでコードを `{title}` に保存し、その次のセルで `python {title}` を実行します(ページの手順と同じです)。",
    "en": "The next cell saves the code as `{title}`, and the one after runs `python {title}`, as the page says.",
}
CUDA_NOTE = {
    "ja": "次のセルには CUDA の GPU が必要です。GPU がない環境では実行しないでください。",
    "en": "The next cell needs a CUDA GPU; without one, skip it.",
}
MODULE_NOTE = {
    "ja": "次のセルには {modules} が必要です(ページで説明しているとおり、別途インストールします)。",
    "en": "The next cell needs {modules}, which is installed separately (see the page).",
}
ATTR_LIST = re.compile(r"\s*\{[^}]*\}\s*$")
# As tests/support/paste_plan.py has them:
CUDA_MARKERS = ("pytest.mark.cuda",)
ANNOTATION_COMMENT = re.compile(r"[ \t]*#\s*\(\d+\)!?[ \t]*$", re.MULTILINE)
FENCE_TITLE = re.compile(r'\btitle="(?P<title>[^"]+)"')
EXPECTED_MARKER = f"<!--{EXPECTED_OUTPUT}-->"


def notebook_name(src_uri: str) -> str:
    """``amp/autocast.md`` -> ``amp-autocast.ipynb``; ``amp/index.md`` -> ``amp.ipynb``; ``index.md`` -> ``index.ipynb``."""
    stem = src_uri.rsplit(".", 1)[0]
    stem = stem.removesuffix("/index")
    return stem.replace("/", "-") + ".ipynb"


@dataclass
class Block:
    """A python block as the copy-paste test plans it (tests/support/paste_plan.py ``Block``)."""

    kind: str  # "paste", or "file" for a block titled with a file name
    code: str  # exactly what the copy button gives
    title: str | None
    expected: str | None  # the checked output shown right under it


def copied_text(code_el) -> str:
    """What Material's copy button copies from a ``<code>`` (paste_plan.copied_text): trailing white
    space trimmed, annotations left out. At build time an annotation is still its ``# (1)!`` comment
    (Material's script makes the ``.md-annotation`` elements in the browser), so the comment goes."""
    return ANNOTATION_COMMENT.sub("", code_el.get_text()).rstrip()


def page_blocks(md, tree) -> list[Block]:
    """The page's python blocks as the copy-paste test plans them (paste_plan.plan_blocks), from the
    page's code blocks in the shared tree: the docs build does not import the tests
    (tests/test_machinery.py), so the plan is made here the same way, and tests/test_page_notebooks.py
    checks every notebook against the test's own plan of the built page."""
    html = []
    for div in tree.find_all("div", class_="highlight"):  # "div.highlight", "span.filename", "pre code" as the test selects them
        title = div.find("span", class_="filename", recursive=False)  # pymdownx puts it before the <pre>
        pre = div.find("pre")
        html.append((pre.find("code") if pre is not None else None, title.get_text().strip() if title else None))
    if len(html) != len(md.fences):
        raise PluginError(f"docs/{md.lang}/{md.rel}: {len(md.fences)} fences in the Markdown but {len(html)} code "
                          "blocks in the page; cannot tell which is which")
    lines = md.text.splitlines()
    blocks = []
    for pos, (fence, (code_el, _)) in enumerate(zip(md.fences, html)):
        if not _is_python(fence):
            continue
        m = FENCE_TITLE.search(fence.info)
        title = m.group("title") if m else None
        block = Block("file" if title else "paste", copied_text(code_el), title, None)
        nxt = md.fences[pos + 1] if pos + 1 < len(md.fences) else None
        if nxt is not None and nxt.info == "text":
            between = [ln.strip() for ln in lines[fence.lineno : nxt.lineno - 1] if ln.strip()]
            include = fence.include
            if (include and nxt.include == include[:-3] + ".out") or (between and between[-1] == EXPECTED_MARKER):
                block.expected = html[pos + 1][0].get_text()
        blocks.append(block)
    return blocks


def _is_python(fence) -> bool:
    return fence.info == "python" or fence.info.startswith("python ")


def _events(md) -> list[tuple[int, str, object]]:
    """The page's section headings (level 2 and below) and python fences, in page order."""
    lines = md.text.splitlines()
    inside = fence_lines(md.text)
    events: list[tuple[int, str, object]] = []
    for i, line in enumerate(lines):
        if i in inside:
            continue
        m = HEADING.match(line)
        if m and len(m.group("hashes")) >= 2:
            events.append((i + 1, "heading", (len(m.group("hashes")), ATTR_LIST.sub("", m.group("text")))))
    for fence in md.fences:
        if _is_python(fence):
            events.append((fence.lineno, "fence", fence))
    return sorted(events, key=lambda e: e[0])


def _source(text: str) -> list[str]:
    """A cell's source as nbformat writes it: lines, each but the last ending in a newline."""
    return text.splitlines(keepends=True)


def _markdown(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": _source(text)}


def _code(text: str, output: str | None = None) -> dict:
    outputs = []
    if output is not None:
        outputs.append({"output_type": "stream", "name": "stdout",
                        "text": _source(output if output.endswith("\n") else output + "\n")})
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": outputs, "source": _source(text)}


def file_cells(title: str, code: str) -> tuple[str, str]:
    """The two cells of a "save as a file and run it" block: save the copied text, run it."""
    return f"%%writefile {title}\n{code}", f"import sys\n!{{sys.executable}} {title}"


def build_notebook(md, blocks, *, language: str, title: str, page_url: str, intro_extra: list[str],
                   labels) -> dict:
    pending: dict[int, str] = {}  # the latest heading of each level not yet written
    cells = [_markdown(f"# {title}\n\n" + labels(INTRO, title=title, url=page_url)
                       + "".join(f"\n\n{extra}" for extra in intro_extra))]
    events = _events(md)
    fences = [item for _, kind, item in events if kind == "fence"]
    if len(fences) != len(blocks):  # plan_blocks makes one block per python fence, in order
        raise PluginError(f"docs/{md.lang}/{md.rel}: {len(blocks)} planned blocks for {len(fences)} python fences")
    by_fence = dict(zip((f.lineno for f in fences), blocks))
    for _, kind, item in events:
        if kind == "heading":
            level, text = item
            for deeper in [lv for lv in pending if lv >= level]:
                del pending[deeper]
            pending[level] = text
            continue
        fence = item
        block = by_fence[fence.lineno]
        for level in sorted(pending):
            cells.append(_markdown(f"{'#' * level} {pending[level]}"))
        pending.clear()
        meta = snippet_meta(fence.include) if fence.include else None
        if any(m in CUDA_MARKERS for m in fence.markers) or (meta is not None and "cuda" in meta.requires):
            cells.append(_markdown(labels(CUDA_NOTE)))
        elif meta is not None and meta.requires_module:
            cells.append(_markdown(labels(MODULE_NOTE, modules=", ".join(f"`{m}`" for m in meta.requires_module))))
        if block.kind == "file":
            save, run = file_cells(block.title, block.code)
            cells.append(_markdown(labels(FILE_BLOCK, title=block.title)))
            cells += [_code(save), _code(run, block.expected)]
        else:
            cells.append(_code(block.code, block.expected))
    for n, cell in enumerate(cells, 1):
        cell["id"] = f"cell-{n}"
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "pytorch-precision-guide": {"page": md.rel, "language": language},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def _intro_extra(tree, page, config, files, labels) -> list[str]:
    """The install line (and the package's, where the page has its note) and the files to download."""
    reader_package = _hook(config, "reader_package.py")  # the wheel and torch's pin this build publishes
    values = reader_package._published[config["site_dir"]]
    install = files.get_file_from_path(reader_package.INSTALL_PAGE)
    base = page.canonical_url or ""
    install_url = _url(install.url_relative_to(page.file), base)
    extra = [labels(INSTALL, torch=values["torch"], install=install_url)]
    if tree.find("div", class_="reader-package") is not None:  # the page's note (reader_package.py): it needs the wheel
        extra[0] += " " + labels(INSTALL_PACKAGE, wheel=f"`{values['wheel']}`",
                                 install=install_url + f"#{reader_package.INSTALL_ANCHOR}")
    downloads = tree.find_all("a", attrs={"data-save-as": True})
    if downloads:
        extra.append(labels(DATA_FILES) + "\n\n" + "\n".join(
            labels(DATA_FILE, name=posixpath.basename(a["href"]), url=_url(a["href"], base), save_as=a["data-save-as"])
            for a in downloads))
    return extra


def _hook(config, filename: str):
    """The module MkDocs loaded for one of this build's hooks (it keys them by their path in the config)."""
    for module in config["hooks"].values():
        if Path(module.__file__).name == filename:
            return module
    raise PluginError(f"page_notebooks.py needs the hook {filename} in the same build")


def _url(href: str, base: str) -> str:
    """``href`` (relative to the page) as the notebook links it: absolute where the site has an address."""
    return posixpath.normpath(posixpath.join(base, href)).replace(":/", "://", 1) if base else href


def on_page_content(html_content, page, config, files, **kwargs):
    src = page.file.src_uri
    if not src.endswith(".md") or page.file.abs_src_path is None:
        return html_content
    text = Path(page.file.abs_src_path).read_text(encoding="utf-8")
    if "```python" not in text:  # the copy-paste test's choice of pages (tests/test_copy_paste.py)
        return html_content
    md = parse_markdown(text, lang(config), src)
    if not any(_is_python(f) for f in md.fences):
        return html_content
    tree = page_tree(html_content, page)  # parsed once for every hook (_common.py)
    blocks = page_blocks(md, tree)

    def labels(table, **values):
        return label(table, config, **values)

    name = notebook_name(src)
    page_url = page.canonical_url or "index.html"  # the notebook lies beside the page's index.html
    notebook = build_notebook(md, blocks, language=lang(config), title=page.title, page_url=page_url,
                              intro_extra=_intro_extra(tree, page, config, files, labels), labels=labels)
    dest = Path(config["site_dir"]) / posixpath.dirname(page.file.dest_uri) / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")

    # The link under the title (under the reader-package note's place: both are the page's preamble).
    p = tree.new_tag("p", attrs={"class": "page-notebook-download", "data-search-exclude": ""})
    a = tree.new_tag("a", attrs={"href": name, "download": name})
    a.string = labels(LINK_LABEL, name=name)
    p.append(a)
    heading = tree.find("h1")
    if heading is not None:
        heading.insert_after(p)
    else:
        tree.insert(0, p)
    return edited(html_content, page)

