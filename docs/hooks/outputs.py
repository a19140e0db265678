"""Outputs that look like outputs (hook; both language builds).

Every ```` ```text ```` block on a page is a checked output (the doc lint allows no
other): the ``.out`` of the snippet above it, or an expected output. Pygments renders
it exactly like code, so each one is wrapped here in a ``<figure class="code-output">``
whose ``<figcaption>`` says "Output" / 「出力」: a screen reader announces the figure
with its caption, and docs/overrides/assets/site.css draws it apart from code.
The ``div.highlight`` itself is left as it is (tests/support/copy_paste.py reads the
blocks in page order).

The "Download name.py" link that downloads.py puts after a snippet's code is moved
below that snippet's output, so that the code and its output stay together.
"""

from __future__ import annotations

from _common import label, soup

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
    for block in tree.select("div.language-text.highlight"):
        figure = tree.new_tag("figure", attrs={"class": "code-output"})
        figcaption = tree.new_tag("figcaption", attrs={"data-search-exclude": ""})  # not a word to search for
        figcaption.string = caption
        block.wrap(figure)
        figure.insert(0, figcaption)
        count += 1
    return count


def move_download_links(tree) -> None:
    for link in tree.select("p > a.snippet-download"):
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
    tree = soup(html_content)
    if not label_outputs(tree, label(OUTPUT_LABEL, config)):
        return html_content
    move_download_links(tree)
    return str(tree)
