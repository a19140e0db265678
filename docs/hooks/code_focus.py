"""Code blocks reachable with the keyboard before Material sets them up (hook; both language builds).

A block that scrolls sideways must take a tab stop to be scrolled without a mouse (WCAG 2.1.1;
axe-core's scrollable-region-focusable, tests/test_site_a11y.py). Material gives one to a block
whose code is wider than the block, when it sets the block up; with ``content.lazy``
(mkdocs.yml: set up as the block scrolls into view, README "Lighthouse") a block below the fold
has none until then. So every block's ``<code>`` gets ``tabindex="0"`` here, in the HTML; Material
takes it off again, when the block comes into view, where the code fits or the device has no
hover. The text the copy button copies is unchanged.
"""

from __future__ import annotations

from _common import edited, page_tree


def add_tab_stops(tree) -> int:
    """``tabindex="0"`` on the ``<code>`` of every ``<pre>`` that has none; how many were added."""
    added = 0
    for code in tree.select("pre > code"):
        if not code.has_attr("tabindex"):
            code["tabindex"] = "0"
            added += 1
    return added


def on_page_content(html_content, page, config, files, **kwargs):
    if page.file.src_uri.endswith(".ipynb"):
        return html_content  # notebook pages: their code is not Material's blocks (scrollable.js)
    if not add_tab_stops(page_tree(html_content, page)):  # parsed once for every hook (_common.py)
        return html_content
    return edited(html_content, page)
