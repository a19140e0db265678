"""No broken link or anchor on the built site, and 404 pages that are styled.

The crawler (tests/support/site_crawl.py) reads every built page of both languages and
the root; the 404 pages are then opened in Chromium, which must fetch every
stylesheet and script they ask for.
"""

from __future__ import annotations

import pytest

from tests.support.site_crawl import Site


pytestmark = [pytest.mark.site]


def test_no_broken_links_or_anchors(built_site):
    site = Site(built_site)
    pages = site.pages()
    assert len(pages) >= 80, "the site was not built"
    assert {"404.html", "index.html"} <= {p.name for p in pages if p.parent == site.root}
    broken = site.check()
    assert not broken, f"{len(broken)} broken links or anchors:\n" + "\n".join(map(str, broken[:60]))


def duplicate_ids(text: str) -> list[str]:
    """The ids used more than once in one page (outside scripts and styles)."""
    import collections
    import re

    from tests.support.site_crawl import OPAQUE

    counts = collections.Counter(re.findall(r'\sid="([^"]*)"', OPAQUE.sub("", text)))
    return sorted(i for i, n in counts.items() if n > 1)


def test_every_id_is_unique_on_its_page(built_site):
    """A link to #x goes to the first element with that id: a second one is unreachable (the
    glossary's group headings shared ids with its terms; mkdocstrings numbered every signature's
    line anchors from 0: docs/hooks/api_labels.py renumbers them)."""
    site = Site(built_site)
    found = {str(p.relative_to(site.root)): d for p in site.pages() if (d := duplicate_ids(p.read_text(encoding="utf-8")))}
    assert not found, "ids used twice on one page:\n" + "\n".join(f"  {page}: {ids[:5]}" for page, ids in found.items())


def test_duplicate_ids_are_found():
    html = '<h2 id="amp">AMP</h2><p id="amp">x</p><a id="y" name="y"></a><script>el.id="amp"</script>'
    assert duplicate_ids(html) == ["amp"]


def test_crawler_catches_broken_links(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text(
        '<h2 id="here">x</h2><a href="../b/">ok</a><a href="#here">ok</a><a href="../b/#there">ok</a>'
        '<a href="https://example.org/x">other site</a><a href="../b/page.md">md</a><a href="../b/#nowhere">anchor</a>'
        '<link rel="stylesheet" href="/assets/missing.css"><script>var s = \'<a href="x.html">\';</script>'
        '<pre><code>&lt;a href="y.html"&gt;</code></pre>',
        encoding="utf-8",
    )
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text('<p id="there">y</p><script>document.id="nowhere"</script>')
    broken = {(b.url, b.why) for b in Site(tmp_path).check()}
    assert broken == {
        ("../b/page.md", "no such file"),
        ("../b/#nowhere", "no such anchor"),
        ("/assets/missing.css", "no such file"),
    }


@pytest.mark.parametrize("path,lang", [("404.html", "ja"), ("ja/404.html", "ja"), ("en/404.html", "en")])
def test_404_pages_are_styled(watched, base_url, path, lang):
    response = watched.page.goto(base_url + path, wait_until="networkidle")
    assert response.ok
    page = watched.page
    assert page.locator("html").get_attribute("lang") == lang
    # Material's stylesheet loaded: the header is a fixed-height coloured bar and
    # the navigation is laid out, not a bulleted list of links.
    header = page.locator("header.md-header")
    assert header.evaluate("e => getComputedStyle(e).position") == "sticky"
    assert header.evaluate("e => getComputedStyle(e).backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
    assert page.locator(".md-nav__list").first.evaluate("e => getComputedStyle(e).listStyleType") == "none"
    home = page.locator("a.md-header__button.md-logo")
    assert home.get_attribute("href").startswith(f"/{lang}/")
    watched.check_clean()
