"""A reader with a problem reaches its fix in two clicks from the home page (issue 33), in Chromium.

Click one: the home page's "Something went wrong" card leads to the troubleshooting page. Click two:
each link there leads to a page that loads cleanly and scrolls to a heading with that id. On a
desktop every link of the page is followed in both languages; on a 375 px phone, the first link of
each symptom and of each message is (the page's links and anchors are all checked without a
browser by tests/test_troubleshooting.py).
"""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.support.site_fixtures import Watched

pytestmark = [pytest.mark.site]

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}

# Every link of the page's content (not the permalinks of its headings).
CONTENT_LINKS = "article a[href]:not(.headerlink)"
# The first link of each symptom (the list under an h2) and of each message (a definition).
FIRST_LINKS = """() => {
  const firsts = [];
  for (const block of document.querySelectorAll("article ul, article dd")) {
    const link = block.querySelector("a[href]:not(.headerlink)");
    if (link) firsts.push(link.getAttribute("href"));
  }
  return firsts;
}"""


def open_from_home(watched, base_url, lang):
    """Click one: the home page's card. Returns the troubleshooting page's URL."""
    page = watched.page
    page.goto(f"{base_url}{lang}/", wait_until="networkidle")
    card = page.locator('article .grid.cards a[href="troubleshooting/"]')
    assert card.count() == 1, "the home page's start-here cards link to the troubleshooting page once"
    card.click()
    page.wait_for_load_state("networkidle")
    assert page.url == f"{base_url}{lang}/troubleshooting/"
    assert page.locator("article h1#troubleshooting").count() == 1
    return page.url


def follow(watched, start, href):
    """Click two: the link `href` on the page at `start`; the target must show the heading it names."""
    page = watched.page
    if page.url != start:
        page.goto(start, wait_until="load")
    link = page.locator(f'article a[href="{href}"]:not(.headerlink)').first
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_load_state("load")
    url = urlparse(page.url)
    assert url.fragment, f"{href} leads to a page, not to a section"
    heading = page.locator(f'article [id="{url.fragment}"]')
    assert heading.count() == 1, f"{href}: {page.url} has no element with id {url.fragment!r}"
    assert heading.evaluate("e => /^H[1-6]$/.test(e.tagName)"), f"{href}: #{url.fragment} is not a heading"
    assert heading.is_visible()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_fix_is_two_clicks_from_home_on_a_desktop(browser, base_url, lang):
    watched = Watched(browser, base_url, **DESKTOP)
    try:
        start = open_from_home(watched, base_url, lang)
        hrefs = list(dict.fromkeys(watched.page.eval_on_selector_all(CONTENT_LINKS, "ls => ls.map(l => l.getAttribute('href'))")))
        hrefs = [h for h in hrefs if not h.startswith("#")]
        assert len(hrefs) >= 60, hrefs
        for href in hrefs:
            follow(watched, start, href)
        watched.page.wait_for_load_state("networkidle")
        watched.check_clean()
    finally:
        watched.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_each_symptom_and_message_is_two_clicks_from_home_on_a_phone(browser, base_url, lang):
    watched = Watched(browser, base_url, **PHONE)
    try:
        start = open_from_home(watched, base_url, lang)
        hrefs = [h for h in dict.fromkeys(watched.page.evaluate(FIRST_LINKS)) if not h.startswith("#")]
        assert len(hrefs) >= 25, hrefs
        for href in hrefs:
            follow(watched, start, href)
        watched.page.wait_for_load_state("networkidle")
        watched.check_clean()
    finally:
        watched.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_nav_lists_the_page(watched, base_url, lang):
    watched.page.goto(f"{base_url}{lang}/", wait_until="networkidle")
    assert watched.page.locator('nav.md-nav--primary a[href$="troubleshooting/"]').count() >= 1
    watched.check_clean()
