"""A crawler over the built site's files: every link, stylesheet, script and
picture a page refers to must exist, and every ``#fragment`` must name an id on
the target page.

It reads the HTML that MkDocs wrote (attribute values are always double-quoted
there), so it needs no server and checks ~100 pages in a second or two.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

TAG = re.compile(r"<(?P<tag>a|link|script|img|source|iframe)\b(?P<attrs>[^>]*)>", re.I)
REF = re.compile(r'\s(?P<attr>href|src)="(?P<url>[^"]*)"')
ID = re.compile(r'\s(?:id|name)="(?P<id>[^"]*)"')
# Text inside these elements is not markup (code samples may show HTML).
OPAQUE = re.compile(r"<(script|style|textarea)\b[^>]*>.*?</\1>", re.S | re.I)


@dataclass(frozen=True)
class Broken:
    page: str
    url: str
    why: str

    def __str__(self):
        return f"{self.page}: {self.url} ({self.why})"


class Site:
    def __init__(self, root: Path):
        self.root = root.resolve()
        self._ids: dict[Path, set[str]] = {}

    def pages(self) -> list[Path]:
        return sorted(self.root.rglob("*.html"))

    def ids(self, page: Path) -> set[str]:
        if page not in self._ids:
            text = OPAQUE.sub("", page.read_text(encoding="utf-8"))
            self._ids[page] = {html.unescape(m["id"]) for m in ID.finditer(text)}
        return self._ids[page]

    def refs(self, page: Path) -> list[str]:
        text = page.read_text(encoding="utf-8")
        out = []
        for tag in TAG.finditer(OPAQUE.sub(lambda m: m.group(0)[: m.group(0).find(">") + 1], text)):
            for ref in REF.finditer(tag["attrs"]):
                out.append(html.unescape(ref["url"]))
        return out

    def resolve(self, page: Path, url: str) -> Path | None:
        """The file a same-site URL points to, or None for another site (or mailto:, data:...)."""
        parts = urlsplit(url)
        if parts.scheme or parts.netloc:
            return None
        path = unquote(parts.path)
        if not path:
            return page
        base = self.root if path.startswith("/") else page.parent
        target = Path(str((base / path.lstrip("/")).resolve()))
        if target.is_dir():
            target = target / "index.html"
        return target

    def check(self) -> list[Broken]:
        broken = []
        for page in self.pages():
            rel = "/" + page.relative_to(self.root).as_posix()
            for url in self.refs(page):
                target = self.resolve(page, url)
                if target is None:
                    continue
                if not target.is_relative_to(self.root):
                    broken.append(Broken(rel, url, "outside the site"))
                elif not target.is_file():
                    broken.append(Broken(rel, url, "no such file"))
                else:
                    fragment = unquote(urlsplit(url).fragment)
                    if fragment and target.suffix == ".html" and fragment not in self.ids(target):
                        broken.append(Broken(rel, url, "no such anchor"))
        return broken


ASSET = re.compile(r"<(?:link\b[^>]*\brel=\"stylesheet\"|script\b|img\b)[^>]*\s(?:href|src)=\"(?P<url>[^\"]+)\"")


def page_kind(rel: str) -> str:
    """The budget class of a built page, from its path below the language folder."""
    if rel.endswith("404.html"):
        return "404"
    if "/notebooks/" in rel:
        return "notebook"
    if "/reference/" in rel:
        return "api"
    return "page"


class Weights(Site):
    """What a first visit to a page downloads: its HTML and every stylesheet, script and
    picture it refers to on this site (the search index is counted on its own)."""

    def weight(self, page: Path) -> tuple[int, int]:
        """(HTML bytes, HTML + assets bytes)."""
        text = page.read_text(encoding="utf-8")
        assets = set()
        for m in ASSET.finditer(OPAQUE.sub(lambda m: m.group(0)[: m.group(0).find(">") + 1], text)):
            target = self.resolve(page, html.unescape(m["url"]))
            if target is not None and target.is_file():
                assets.add(target)
        size = page.stat().st_size
        return size, size + sum(a.stat().st_size for a in assets)
