"""What the site hooks in this folder share (not a hook itself; mkdocs.yml does not list it).

MkDocs loads each hook by its path with this folder on ``sys.path`` while the hook
module runs its imports, so the hooks import this module as ``_common``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from bs4 import BeautifulSoup

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
# docs_tools (the docs-tools package the tests share) is not installed: import it from the
# repository now. MkDocs restores sys.path after loading each hook, but a package once
# imported finds its submodules through its own __path__.
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
import docs_tools  # noqa: E402,F401


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


def soup(html: str) -> BeautifulSoup:
    """A page (or a page's content) as a tree; ``str(tree)`` gives the HTML back."""
    return BeautifulSoup(html, "html.parser")
