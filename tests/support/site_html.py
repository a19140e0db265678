"""Parts of a built page, parsed alone and once per test process.

A built page is mostly Material's navigation (every page of the site, on every page); a test that
reads the content or the header parses only that element, not the whole file. Parsing every page of
both languages whole took 12 s per language for each test that did it.
"""

from __future__ import annotations

import functools
from pathlib import Path

from bs4 import BeautifulSoup


def _element(text: str, tag: str):
    """The first ``<tag>`` element of ``text`` parsed alone (None without one). For the elements a
    page has once and never nests in itself (``article``, ``header``)."""
    start, end = text.find(f"<{tag}"), text.find(f"</{tag}>")
    if start == -1 or end == -1:
        return None
    return getattr(BeautifulSoup(text[start : end + len(f"</{tag}>")], "html.parser"), tag)


@functools.lru_cache(maxsize=None)
def article(path: Path):
    """A page's ``<article>`` (None without one). The tests only read it."""
    return _element(path.read_text(encoding="utf-8"), "article")


@functools.lru_cache(maxsize=None)
def header(path: Path):
    """A page's ``<header>``: the title bar, the language and colour switches, search."""
    return _element(path.read_text(encoding="utf-8"), "header")
