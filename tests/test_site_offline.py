"""The offline edition (bash .ci/offline): both languages built with Material's
offline plugin and plain .html URLs, read from the file system in Chromium.
"""

from __future__ import annotations

import pytest

from tests.support.site_crawl import Site
from tests.support.site_fixtures import OFFLINE_CONFIGS, OFFLINE_ENV, mkdocs_build
from tests.test_site_search import search

pytestmark = [pytest.mark.site]


@pytest.fixture(scope="module")
def offline_site(tmp_path_factory, built_site):
    # After the main build (built_site): the offline build then reuses its caches (executed
    # notebooks, figures, the reader wheel) instead of doing the same work at the same time on the
    # other core; needing built_site also schedules these tests with the other site tests.
    out = tmp_path_factory.mktemp("offline")
    for lang, config in OFFLINE_CONFIGS.items():
        # with a deployment's SITE_URL, as `bash .ci/build` builds it: the deploy test's builds
        proc = mkdocs_build(config, out / lang, OFFLINE_ENV)
        assert proc.returncode == 0, f"offline build ({lang}) failed:\n{proc.stdout}\n{proc.stderr}"
    return out


def test_offline_edition_has_no_broken_link(offline_site):
    broken = Site(offline_site).check()
    assert not broken, "\n".join(map(str, broken[:40]))
    folder_links = [
        (str(p.relative_to(offline_site)), u)
        for p in Site(offline_site).pages()
        for u in Site(offline_site).refs(p)
        if u.endswith("/") and not u.startswith(("http:", "https:"))
    ]
    assert not folder_links, f"links to folders do not open from the file system: {folder_links[:10]}"


def test_offline_edition_says_what_it_is(offline_site):
    """The home page offers the offline edition on the site; in the offline edition, it says
    that this is it (docs/hooks/offline_edition.py) instead of linking a file it does not hold."""
    for lang, text in (("ja", "このサイトがオフライン版です。"), ("en", "You are reading the offline edition.")):
        home = (offline_site / lang / "index.html").read_text(encoding="utf-8")
        assert text in home and "offline.zip" not in home, lang


def test_offline_edition_reads_and_searches_from_files(browser, offline_site):
    context = browser.new_context()
    page = context.new_page()
    errors, requests = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("request", lambda r: r.url.startswith("file:") or requests.append(r.url))
    try:
        page.goto((offline_site / "index.html").as_uri())
        page.wait_for_url("**/ja/index.html")
        page.goto((offline_site / "en" / "storage" / "half-vs-float.html").as_uri(), wait_until="load")
        page.locator("input.md-search__input").click()
        hrefs = search(page, "GradScaler")
        assert any("amp/grad-scaler.html" in h for h in hrefs[:6]), hrefs
        page.locator('a.md-select__link[hreflang="ja"]').first.evaluate("a => a.click()")
        page.wait_for_url("**/ja/storage/half-vs-float.html")
    finally:
        context.close()
    assert not requests, f"the offline edition asked the network for: {requests}"
    # Material reads both languages' sitemap.xml with XMLHttpRequest, which Chromium
    # refuses for file:// pages; the language links work without it (language-switch.js).
    errors = [e for e in errors if "sitemap.xml" not in e and "net::ERR_FAILED" not in e]
    assert not errors, errors


# Each format's row of every value's table: [format, bits, stored value].
EXPLORER_ROWS = """() => [...document.querySelectorAll("div.number-explorer table")].map(t => [...t.querySelectorAll("tbody tr")]
  .map(tr => [tr.querySelector("th").textContent, ...[...tr.querySelectorAll("td")].slice(0, 2).map(td => td.textContent)]))"""
EXPLORER_VALUES = "1/3, 65520, 1000, -2^-140, 1e-3"


def _explorer_rows(page, url: str) -> tuple[list, int]:
    """The value explorer's rows after typing EXPLORER_VALUES at ``url``, and the block explorer's table count."""
    page.goto(url, wait_until="load")
    field = page.locator("div.number-explorer input[type=text]").first
    field.fill(EXPLORER_VALUES)
    field.press("Enter")
    return page.evaluate(EXPLORER_ROWS), page.locator("div.block-explorer table").count()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_number_explorer_works_from_files(browser, offline_site, base_url, lang):
    """The number explorer (issue 43) in the offline edition, opened from the file system: a value typed
    gives the same bits and stored values as on the site, with no request beyond the files."""
    context = browser.new_context()
    page = context.new_page()
    errors, requests = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    try:
        online, _ = _explorer_rows(page, f"{base_url}{lang}/storage/explorer/")
        page.on("request", lambda r: r.url.startswith("file:") or requests.append(r.url))
        offline, blocks = _explorer_rows(page, (offline_site / lang / "storage" / "explorer.html").as_uri())
    finally:
        context.close()
    assert len(offline) == 5 and all(len(rows) == 7 for rows in offline), offline
    assert offline == online
    assert {f: bits for f, bits, _ in offline[1]}["float16"] == "0111110000000000"  # 65520 rounds to inf
    assert blocks == 2, "the block explorer's tables"
    assert not requests, f"the offline edition asked the network for: {requests}"
    errors = [e for e in errors if "sitemap.xml" not in e and "net::ERR_FAILED" not in e]
    assert not errors, errors
