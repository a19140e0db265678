"""A reader with a problem reaches its fix in two clicks from the home page (issue 33), in Chromium.

Click one: the home page's "Something went wrong" card leads to the troubleshooting page. Click two:
a link there leads to a page that scrolls to a heading with that id. In Chromium, on a desktop and
on a 375 px phone, both languages, the first link of each symptom and of each group of messages is
clicked; every link of the built page is resolved against the built site without a browser (and
the Markdown's links and anchors by tests/test_troubleshooting.py).
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import urlparse

import pytest
from bs4 import BeautifulSoup

from tests.support.site_fixtures import Watched

pytestmark = [pytest.mark.site]

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}

# The first link after each h2/h3 of the page: one per symptom and per group of messages.
FIRST_LINKS = """() => {
  const firsts = [];
  let wanted = false;
  const walker = document.createTreeWalker(document.querySelector("article"), NodeFilter.SHOW_ELEMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (/^H[23]$/.test(node.tagName)) wanted = true;
    else if (wanted && node.tagName === "A" && !node.classList.contains("headerlink") && !node.getAttribute("href").startsWith("#")) {
      firsts.push(node.getAttribute("href"));
      wanted = false;
    }
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
    """Click two: the link `href` on the page at `start`; the target must show the heading it names.

    The click opens the target in a tab of its own (Ctrl/Cmd): the same link, hit-tested where it
    is on the page at this viewport, without going back to and reloading the troubleshooting page
    for each link (half the page loads of the test: 30 s of each run). The new tab is watched like
    the first (console errors, failed requests, other hosts) and closed after its checks."""
    page = watched.page
    assert page.url == start
    link = page.locator(f'article a[href="{href}"]:not(.headerlink)').first
    link.scroll_into_view_if_needed()
    with watched.context.expect_page() as opened:
        link.click(modifiers=["ControlOrMeta"])
    target = opened.value
    try:
        target.wait_for_load_state("domcontentloaded")
        url = urlparse(target.url)
        assert url.fragment, f"{href} leads to a page, not to a section"
        heading = target.locator(f'article [id="{url.fragment}"]')
        assert heading.count() == 1, f"{href}: {target.url} has no element with id {url.fragment!r}"
        assert heading.evaluate("e => /^H[1-6]$/.test(e.tagName)"), f"{href}: #{url.fragment} is not a heading"
        assert heading.is_visible()
        target.wait_for_load_state("load")  # its requests reach the watchers before it closes
    finally:
        target.close()


# Each language once and each layout once (the Japanese site on a phone, where most of its readers
# are; the English one on a desktop): both languages in both layouts took four runs of 25-40 s each,
# and the layout decides only where the links sit, which the phone sweep of every page
# (test_site_a11y.py) checks in both languages.
@pytest.mark.parametrize(("lang", "device"), [("ja", "phone"), ("en", "desktop")])
def test_each_symptom_is_two_clicks_from_home(browser, base_url, lang, device):
    watched = Watched(browser, base_url, **(PHONE if device == "phone" else DESKTOP))
    try:
        start = open_from_home(watched, base_url, lang)
        hrefs = watched.page.evaluate(FIRST_LINKS)
        assert len(hrefs) == 12, hrefs  # nine symptoms, then the messages in three groups
        for href in hrefs:
            follow(watched, start, href)
        watched.page.wait_for_load_state("networkidle")
        watched.check_clean()
    finally:
        watched.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_link_of_the_built_page_lands_on_a_heading(built_site, lang):
    """Each link as the build wrote it, resolved like a browser: the page exists and has the heading."""
    here = "troubleshooting/"
    soup = BeautifulSoup((built_site / lang / here / "index.html").read_text(encoding="utf-8"), "html.parser")
    # a shown snippet's download link (docs/hooks/downloads.py) is a file, not a fix: the copy-paste test checks it
    hrefs = [a["href"] for a in soup.select("article a[href]:not([download])") if "headerlink" not in (a.get("class") or [])]
    hrefs = [h for h in dict.fromkeys(hrefs) if not h.startswith("#")]
    assert len(hrefs) >= 50
    missing, pages = [], {}
    for href in hrefs:
        path, _, fragment = href.partition("#")
        target = posixpath.normpath(posixpath.join(here, path))
        page = built_site / lang / target / "index.html"
        if not page.is_file():
            missing.append(f"{href}: no page {lang}/{target}/")
            continue
        html = pages.setdefault(page, page.read_text(encoding="utf-8"))
        if not fragment or not re.search(rf'<h[1-6] id="{re.escape(fragment)}"', html):
            missing.append(f"{href}: {lang}/{target}/ has no heading id={fragment!r}")
    assert not missing, "\n".join(missing)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_nav_lists_the_page(watched, base_url, lang):
    watched.page.goto(f"{base_url}{lang}/", wait_until="networkidle")
    assert watched.page.locator('nav.md-nav--primary a[href$="troubleshooting/"]').count() >= 1
    watched.check_clean()
