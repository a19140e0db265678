"""The site as search engines and other sites see it (docs/hooks/descriptions.py,
alternates.py, offline_edition.py, root_pages.py):

* every page has a meta description of its own, within the length a result page shows;
* every page's ``<link rel="alternate" hreflang>`` and header language links point at the
  same page in each language, and those pages exist;
* built with ``SITE_URL`` (one language, in a folder of its own), the sitemap lists every
  page and every page has its canonical link, and the alternates are absolute;
* the offline edition's download: offered with its size when the build is given the zip
  (``OFFLINE_EDITION``, as ``bash .ci/build`` does), a sentence on how to build it otherwise
  (the test build), so that no build links a missing file.

Pages are read up to ``</head>`` (and the header for the language links): parsing ~120
whole pages would cost seconds.
"""

from __future__ import annotations

import re
import tomllib
import zipfile
from pathlib import Path
from posixpath import normpath
from urllib.parse import urljoin, urlsplit
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup

from docs_tools.docs_model import CONFIGS, REPO
from tests.support.site_fixtures import mkdocs_build

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


@pytest.fixture(scope="module")
def deployed_en(built_site, tmp_path_factory):
    """The English site built as `bash .ci/build` builds it for a deployment: with SITE_URL and
    OFFLINE_EDITION (a small stand-in zip). After built_site, whose caches it reuses."""
    tmp = tmp_path_factory.mktemp("deployed")
    stand_in = tmp / "site-offline.zip"
    with zipfile.ZipFile(stand_in, "w") as z:
        # a fixed date: the same bytes every run, so the site build cache can serve this build
        entry = zipfile.ZipInfo("site-offline/index.html", date_time=(2026, 1, 1, 0, 0, 0))
        z.writestr(entry, "<p>offline</p>" * 200)
    out = tmp / "site" / "en"
    proc = mkdocs_build(CONFIGS["en"], out, env={"SITE_URL": SITE_URL, "OFFLINE_EDITION": str(stand_in)})
    assert proc.returncode == 0, f"build with SITE_URL failed:\n{proc.stdout}\n{proc.stderr}"
    return out, stand_in


def test_with_site_url_a_sitemap_of_every_page_and_canonical_links(deployed_en):
    out, _ = deployed_en
    base = f"{SITE_URL}en/"
    built = {url: path for url, path in pages(out).items() if url != "404.html"}
    sitemap = ElementTree.parse(out / "sitemap.xml").getroot()
    locs = [loc.text.strip() for loc in sitemap.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert sorted(locs) == sorted(base + url for url in built)
    for url, path in built.items():
        tree = head_and_header(path)
        assert [link["href"] for link in tree.select('link[rel="canonical"]')] == [base + url], url
        assert alternates(tree) == {
            "ja": f"{SITE_URL}ja/{url}", "en": f"{SITE_URL}en/{url}", "x-default": f"{SITE_URL}ja/{url}",
        }, url
        assert all(not re.match(r"\w+:", href) for href in switch_links(tree).values()), url  # relative: works on a copy too
    assert alternates(head_and_header(out / "404.html"))["en"] == f"{SITE_URL}en/"


def test_the_deployed_site_offers_the_offline_edition_with_its_size(deployed_en):
    out, stand_in = deployed_en
    published = out / "downloads" / OFFLINE_ZIP
    assert published.read_bytes() == stand_in.read_bytes()
    home = BeautifulSoup((out / "index.html").read_text(encoding="utf-8"), "html.parser")
    link = home.select_one(f'a[href="downloads/{OFFLINE_ZIP}"]')
    assert link is not None and link.has_attr("download"), "no download link on the home page"
    size = f"{round(stand_in.stat().st_size / 1000)} KB"
    assert size in link.parent.get_text(), link.parent.get_text()
