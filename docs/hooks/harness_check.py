"""Test metadata never shows (hook; both language builds).

How the tests run a block (``requires``, ``timeout``, ``allow-stderr``, ``figure``,
``output-tolerance``; pytest markers) lives next to the snippet, in its sidecar
``<name>.test.toml``, not in the code readers copy. This hook fails the build when a
rendered code block of any page, notebooks included, still holds such a line.
"""

from __future__ import annotations

import re

from _common import soup
from mkdocs.exceptions import PluginError

MARKER = re.compile(
    r"^\s*#\s*(?:requires|requires-module|timeout|allow-stderr|figure|output-tolerance)\s*:"
    r"|pytest\.mark|pytest-codeblocks",
    re.M,
)
_found: dict[str, list[str]] = {}  # site_dir -> "page: line"


def markers(html_content: str) -> list[str]:
    """The lines of the page's code blocks that are test metadata."""
    lines = []
    for pre in soup(html_content).find_all("pre"):
        for line in pre.get_text().splitlines():
            if MARKER.search(line):
                lines.append(line.strip())
    return lines


def on_page_content(html_content, page, config, files, **kwargs):
    for line in markers(html_content):
        _found.setdefault(config["site_dir"], []).append(f"{page.file.src_uri}: {line}")
    return html_content


def on_post_build(config, **kwargs):
    found = _found.pop(config["site_dir"], [])
    if found:
        raise PluginError(
            f"{len(found)} test-metadata line(s) in the code readers see (move them to the snippet's "
            ".test.toml sidecar):\n  " + "\n  ".join(found)
        )
