"""What the site hooks in this folder share (not a hook itself; mkdocs.yml does not list it).

MkDocs loads each hook by its path with this folder on ``sys.path`` while the hook
module runs its imports, so the hooks import this module as ``_common``.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from bs4 import BeautifulSoup
from mkdocs.exceptions import PluginError

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
# docs_tools (the docs-tools package the tests share) is not installed: import it from the
# repository now. MkDocs restores sys.path after loading each hook, but a package once
# imported finds its submodules through its own __path__.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
import docs_tools  # noqa: E402,F401


def whole_snippet(fence) -> str | None:
    """The ``snippets/**/*.py`` a python fence (a docs_tools.docs_model.Fence) includes whole, else None."""
    include = fence.include
    python = fence.info == "python" or fence.info.startswith("python ")
    return include if python and include and include.startswith("snippets/") and include.endswith(".py") else None


def lang(config) -> str:
    """The build's language: ``ja`` (mkdocs.yml) or ``en`` (mkdocs.en.yml)."""
    return config["theme"]["language"]


def deployment_root() -> str | None:
    """``SITE_URL`` from the environment (the address of both languages' parent), ending in
    ``/``; None where it is not set (a local build, the tests)."""
    url = os.environ.get("SITE_URL", "").strip()
    if not url:
        return None
    return url if url.endswith("/") else url + "/"


def is_offline(config) -> bool:
    """Whether this build is the offline edition (Material's offline plugin; read from files)."""
    return "material/offline" in config["plugins"] or "offline" in config["plugins"]


def label(table: dict[str, str], config, **values) -> str:
    """The text of ``table`` in the build's language (English where it has none), formatted."""
    return table.get(lang(config), table["en"]).format(**values)


def with_classes(tree, name: str | None, *classes: str) -> list:
    """The elements of ``tree`` named ``name`` (any name for None) that have every one of ``classes``,
    in document order: ``tree.select("name.a.b")`` without a CSS engine (soupsieve took a tenth of a
    build for the few simple selectors the hooks use)."""
    wanted = set(classes)

    def match(tag) -> bool:
        return (name is None or tag.name == name) and wanted.issubset(tag.get("class") or ())

    return tree.find_all(match)


def soup(html: str) -> BeautifulSoup:
    """A page (or a page's content) as a tree; ``str(tree)`` gives the HTML back."""
    return BeautifulSoup(html, "html.parser")


# -- one parse per page ------------------------------------------------------------------------
#
# Several hooks read or edit a page's content (on_page_content: reader_package, notebooks,
# api_labels, outputs, descriptions, harness_check). Parsing the HTML in each of them, and writing
# it back after each edit, took 40 % of a build (280 parses for 61 English pages). Instead the first
# of them parses it (page_tree), each edits that one tree and returns the HTML it was given
# (edited() marks the tree changed), and the last one, harness_check.py, writes the tree back once
# (page_html). MkDocs hands each hook's return value to the next hook, so a hook recognises the
# HTML its predecessor returned by identity; hooks run after every plugin of the same priority, so
# no plugin sees the HTML between two of them.


@dataclass
class _Held:
    html: str  # the string the hooks pass along (stale once the tree is edited)
    tree: BeautifulSoup
    edited: bool = False


def page_tree(html: str, page) -> BeautifulSoup:
    """The tree of the page's content, parsed once for all the hooks that read or edit it."""
    held = page.__dict__.get("_hooks_tree")
    if held is not None and held.html is html:
        return held.tree
    if held is not None and held.edited:
        raise PluginError(
            f"{page.file.src_uri}: the page's HTML changed between two hooks while a hook's edits to its "
            "tree were not written back; harness_check.py must stay the last hook (it writes the tree back)"
        )
    tree = soup(html)
    page.__dict__["_hooks_tree"] = _Held(html, tree)
    return tree


def edited(html: str, page) -> str:
    """Mark the page's tree (from page_tree) as changed; returns ``html`` for the next hook."""
    held = page.__dict__.get("_hooks_tree")
    if held is None or held.html is not html:
        raise RuntimeError(f"{page.file.src_uri}: edited() without page_tree() on the same HTML")
    held.edited = True
    return html


def page_html(html: str, page) -> str:
    """The page's HTML with every hook's edits: the tree written back, once (the last hook)."""
    held = page.__dict__.pop("_hooks_tree", None)
    if held is None or not held.edited:
        return html
    if held.html is not html:
        raise PluginError(f"{page.file.src_uri}: the page's HTML changed after a hook edited its tree")
    return str(held.tree)
