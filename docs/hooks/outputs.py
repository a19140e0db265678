"""Outputs that look like outputs (hook; both language builds).

Every ```` ```text ```` block on a page is a checked output (the doc lint allows no
other): the ``.out`` of the snippet above it, or an expected output. Pygments renders
it exactly like code, so each one is wrapped here in a ``<figure class="code-output">``
whose ``<figcaption>`` says "Output" / 「出力」: a screen reader announces the figure
with its caption, and docs/overrides/assets/site.css draws it apart from code.
The ``div.highlight`` itself is left as it is (tests/support/paste_plan.py reads the
blocks in page order).

The "Download name.py" link that downloads.py puts after a snippet's code is moved
below that snippet's output, so that the code and its output stay together.

An output recorded on another machine than the one that checks the site (a GPU output: the
snippet's sidecar has a ``[recorded]`` table, docs_tools/snippets.py) gets a line under it,
inside its figure, that says where: "Output on NVIDIA H100 80GB HBM3 (torch 2.11.0+cu130,
CUDA 13.0, recorded 2026-11-26)" / 「NVIDIA H100 80GB HBM3 での出力(torch 2.11.0+cu130、
CUDA 13.0、2026-11-26 に記録)」 (``p.output-recorded``). The block is found by its text: the
page's Markdown names the ``.out`` files it includes, and the block whose text is that file's is
its output.
"""

from __future__ import annotations

from _common import REPO, edited, label, lang, page_tree, with_classes

from docs_tools.docs_model import parse_markdown
from docs_tools.outputs import normalize_output
from docs_tools.snippets import Recorded, snippet_meta

OUTPUT_LABEL = {"ja": "出力", "en": "Output"}


def _is_output(el) -> bool:
    """An output figure, or content tabs holding nothing but outputs (one per kind of machine)."""
    if el.name == "figure" and "code-output" in (el.get("class") or []):
        return True
    if el.name == "div" and "tabbed-set" in (el.get("class") or []):
        blocks = el.select("div.highlight")
        return bool(blocks) and all(b.find_parent("figure", class_="code-output") for b in blocks)
    return False


def label_outputs(tree, caption: str) -> int:
    count = 0
    for block in with_classes(tree, "div", "language-text", "highlight"):
        figure = tree.new_tag("figure", attrs={"class": "code-output"})
        figcaption = tree.new_tag("figcaption", attrs={"data-search-exclude": ""})  # not a word to search for
        figcaption.string = caption
        block.wrap(figure)
        figure.insert(0, figcaption)
        count += 1
    return count


def recorded_outputs(markdown: str) -> list[tuple[str, Recorded]]:
    """The text of each ``.out`` the page includes whose snippet's sidecar says where it was recorded."""
    found = []
    for fence in parse_markdown(markdown).fences:
        include = fence.include
        if not include or not include.startswith("snippets/") or not include.endswith(".out"):
            continue
        out = REPO / include
        script = out.with_name(out.name.split(".")[0] + ".py")
        if not out.is_file() or not script.is_file():
            continue
        recorded = snippet_meta(script).recorded
        if recorded is not None:
            found.append((normalize_output(out.read_text(encoding="utf-8")), recorded))
    return found


def stamp_recorded_outputs(tree, outputs: list[tuple[str, Recorded]], language: str) -> int:
    """Put each recorded output's caption under its block, inside the block's figure."""
    count = 0
    for block in with_classes(tree, "div", "language-text", "highlight"):
        text = normalize_output(block.get_text())
        recorded = next((rec for out, rec in outputs if out == text), None)
        if recorded is None:
            continue
        p = tree.new_tag("p", attrs={"class": "output-recorded"})
        small = tree.new_tag("small")
        small.string = recorded.caption(language)
        p.append(small)
        block.insert_after(p)
        count += 1
    return count


def move_download_links(tree) -> None:
    for link in with_classes(tree, "a", "snippet-download"):
        if link.parent is None or link.parent.name != "p":
            continue
        p = link.parent
        if len(p.find_all(True)) != 1:
            continue
        after = p
        nxt = after.find_next_sibling()
        while nxt is not None and _is_output(nxt):
            after = nxt
            nxt = after.find_next_sibling()
        if after is not p:
            after.insert_after(p.extract())


def on_page_content(html_content, page, config, files, **kwargs):
    if page.file.src_uri.endswith(".ipynb"):
        return html_content
    tree = page_tree(html_content, page)  # parsed once for every hook (_common.py)
    if not label_outputs(tree, label(OUTPUT_LABEL, config)):
        return html_content
    stamp_recorded_outputs(tree, recorded_outputs(page.markdown or ""), lang(config))
    move_download_links(tree)
    return edited(html_content, page)
