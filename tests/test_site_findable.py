"""The site as search engines and other sites see it (docs/hooks/descriptions.py,
alternates.py, offline_edition.py, root_pages.py):

* every page has a meta description of its own, within the length a result page shows;
* every page's ``<link rel="alternate" hreflang>`` and header language links point at the
  same page in each language, and those pages exist;
* the test build (no ``OFFLINE_EDITION``) says how to build the offline edition instead of
  linking a file it does not hold.

A deployment's build (``SITE_URL``: sitemaps, canonical and absolute alternate links, the offline
edition offered with its size) is tests/test_site_deploy.py's, built by ``.ci/build`` itself.

Pages are read up to ``</head>`` (and the header for the language links): parsing ~120
whole pages would cost seconds.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from posixpath import normpath
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup

from docs_tools.docs_model import REPO

pytestmark = [pytest.mark.site]

LANGS = ("ja", "en")
LIMITS = {"ja": 120, "en": 160}
SITE_URL = "https://example.org/guide/"
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
OFFLINE_ZIP = f"pytorch-precision-guide-{VERSION}-offline.zip"


def pages(root: Path) -> dict[str, Path]:
    """A language's built pages by URL below its root ("" the home page, "404.html")."""
    out = {}
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        out[rel.removesuffix("index.html") if rel.endswith("index.html") else rel] = path
    return out


def head_and_header(path: Path) -> BeautifulSoup:
    text = path.read_text(encoding="utf-8")
    start, end = text.find("<header"), text.find("</header>")
    assert text.find("</head>") != -1 and -1 not in (start, end), f"{path}: no head or header"
    return BeautifulSoup(text[: text.find("</head>")] + text[start : end + len("</header>")], "html.parser")


def alternates(tree) -> dict[str, str]:
    links = tree.select('link[rel="alternate"][hreflang]')
    found = {link["hreflang"]: link["href"] for link in links}
    assert len(found) == len(links), "an hreflang given twice"
    return found


def switch_links(tree) -> dict[str, str]:
    return {a["hreflang"]: a["href"] for a in tree.select("a.md-select__link[hreflang]")}


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_a_description_of_its_own(built_site, lang):
    seen: dict[str, str] = {}
    for url, path in pages(built_site / lang).items():
        meta = head_and_header(path).select('meta[name="description"]')
        assert len(meta) == 1, f"{lang}/{url}: {len(meta)} meta descriptions"
        text = meta[0]["content"]
        assert text and text == " ".join(text.split()), f"{lang}/{url}: {text!r}"
        assert len(text) <= LIMITS[lang], f"{lang}/{url}: {len(text)} characters: {text}"
        assert text not in seen, f"{lang}/{url} and {lang}/{seen.get(text)} have the same description: {text}"
        seen[text] = url
    assert len(seen) >= 60


@pytest.mark.parametrize("lang", LANGS)
def test_alternates_and_language_links_point_at_the_same_page(built_site, lang):
    other = {"ja": "en", "en": "ja"}[lang]
    built = pages(built_site / lang)
    assert pages(built_site / other).keys() == built.keys()
    for url, path in built.items():
        tree = head_and_header(path)
        if url == "404.html":  # served at any address: both home pages, from the server's root
            assert alternates(tree) == {"ja": "/ja/", "en": "/en/", "x-default": "/ja/"}
            assert switch_links(tree) == {"ja": "/ja/", "en": "/en/"}
            continue
        assert alternates(tree) == {"ja": f"/ja/{url}", "en": f"/en/{url}", "x-default": f"/ja/{url}"}, url
        here = f"/{lang}/{url}"
        landed = {code: normpath(urlsplit(urljoin(here, href)).path) for code, href in switch_links(tree).items()}
        assert landed == {code: normpath(f"/{code}/{url}") for code in LANGS}, f"{here}: {switch_links(tree)}"
        for code in LANGS:
            assert (built_site / code / url / "index.html").is_file(), f"{here}: no {code} page"


def test_the_test_build_offers_no_offline_download_and_says_how_to_build_it(built_site):
    for lang in LANGS:
        home = (built_site / lang / "index.html").read_text(encoding="utf-8")
        assert not list((built_site / lang).glob("downloads/*offline*")), lang
        assert OFFLINE_ZIP not in home and "{{" not in home, lang
        assert "<code>bash .ci/offline</code>" in home, lang
