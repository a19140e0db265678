"""Test metadata never shows (hook; both language builds).

How the tests run a block (``requires``, ``timeout``, ``allow-stderr``, ``figure``,
``output-tolerance``; pytest markers) lives next to the snippet, in its sidecar
``<name>.test.toml``, not in the code readers copy. This hook fails the build when a
rendered code block of any page, notebooks included, still holds such a line.
"""

from __future__ import annotations

import re

from _common import page_html, page_tree, soup
from mkdocs.exceptions import PluginError

MARKER = re.compile(
    r"^\s*#\s*(?:requires|requires-module|timeout|allow-stderr|figure|output-tolerance)\s*:"
    r"|pytest\.mark|pytest-codeblocks",
    re.M,
)
_found: dict[str, list[str]] = {}  # site_dir -> "page: line"


def markers(html_content: str) -> list[str]:
    """The lines of the page's code blocks that are test metadata."""
    return markers_in(soup(html_content))


def markers_in(tree) -> list[str]:
    lines = []
    for pre in tree.find_all("pre"):
        for line in pre.get_text().splitlines():
            if MARKER.search(line):
                lines.append(line.strip())
    return lines


def on_page_content(html_content, page, config, files, **kwargs):
    # The last hook (mkdocs.yml): it reads the tree the hooks before it edited, and writes it back.
    for line in markers_in(page_tree(html_content, page)):
        _found.setdefault(config["site_dir"], []).append(f"{page.file.src_uri}: {line}")
    return page_html(html_content, page)


def on_post_build(config, **kwargs):
    found = _found.pop(config["site_dir"], [])
    if found:
        raise PluginError(
            f"{len(found)} test-metadata line(s) in the code readers see (move them to the snippet's "
            ".test.toml sidecar):\n  " + "\n  ".join(found)
        )
