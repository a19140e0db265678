"""The interface of the Japanese site is Japanese.

Every built page of /ja/ is read (BeautifulSoup): the visible text of the header, the
navigation, the footer, the dialogs and the API reference's labels, and the ``title``,
``aria-label``, ``placeholder`` and ``alt`` attributes anywhere outside code. A string with
English words and no Japanese fails, unless it is a name (an identifier, a product, a dtype,
a page title that is an API name) or "English" in the language switch, which names the other
language in its own words. Where the strings come from: ``theme.language: ja`` (Material's own
labels), the palette toggles, ``toc.permalink_title``, the footnotes' back-link title and
``copyright`` in mkdocs.yml, docs/overrides/404.html, and docs/hooks/api_labels.py.
"""

from __future__ import annotations

import re

import pytest

from tests.support.site_crawl import Site

pytestmark = [pytest.mark.site]

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
# Two English words: "Permanent link", "Switch to dark mode", "404 - Not found", "Jump back to ..."
ENGLISH = re.compile(r"(?<![\w./-])[A-Za-z]{2,}(?![\w./(-])[^A-Za-z]{1,3}(?<![\w./-])[A-Za-z]{2,}(?![\w./(-])")
ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
CHROME = "header, nav, footer, .md-dialog, .md-search, .md-top, .md-source, .md-footer, .doc-section-title, .doc-class-bases, th"
# A one-word label the API reference writes before its values ("Bases:" of a class, translated by
# docs/hooks/api_labels.py): one English word is enough there.
LABEL = re.compile(r"^[A-Za-z]+:$")
ALLOWED = {
    "English",  # the language switch names the other language in its own words
    "English version of this site",  # the 404 page's link for English readers, in their language
    "ONNX Runtime",  # a product's name
}
# A quoted message (「Detected call of ...」), or a name with its unit ("PyTorch ms").
ALLOWED_PATTERN = re.compile(r"^「[^」]*」$|^\S+ (ms|µs|KB|MB|GB)$")


def english_strings(html: str, chrome: str = CHROME) -> tuple[list[str], int]:
    """(English interface strings, number of strings looked at) of one page."""
    from bs4 import BeautifulSoup

    tree = BeautifulSoup(html, "html.parser")
    for el in tree.select("pre, code, script, style, .highlight, .language-text, svg"):
        el.decompose()
    found, checked = [], 0
    for el in tree.find_all(True):
        for attr in ATTRIBUTES:
            value = el.get(attr)
            if isinstance(value, str) and value.strip():
                checked += 1
                if ENGLISH.search(value) and not JAPANESE.search(value) and value not in ALLOWED and not ALLOWED_PATTERN.match(value):
                    found.append(f"{attr}={value!r}")
    for el in tree.select(chrome):
        for text in el.find_all(string=True):
            s = " ".join(text.split())
            if not s:
                continue
            checked += 1
            english = ENGLISH.search(s) or LABEL.match(s)
            if english and not JAPANESE.search(s) and s not in ALLOWED and not ALLOWED_PATTERN.match(s):
                found.append(f"text {s[:80]!r}")
    return found, checked


def test_japanese_pages_have_a_japanese_interface(built_site):
    site = Site(built_site)
    pages = [p for p in site.pages() if p.relative_to(site.root).parts[0] == "ja"]
    assert len(pages) > 40
    problems, checked = {}, 0
    for page in pages:
        # the 404 page is all interface: its article too
        chrome = CHROME + ", article" if page.name == "404.html" else CHROME
        found, n = english_strings(page.read_text(encoding="utf-8"), chrome)
        checked += n
        for item in found:
            problems.setdefault(item, []).append(str(page.relative_to(site.root)))
    print(f"checked {checked} interface strings on {len(pages)} Japanese pages")
    assert not problems, "English interface strings on Japanese pages:\n" + "\n".join(
        f"  {item} on {len(where)} pages, e.g. {where[0]}" for item, where in sorted(problems.items())
    )


def test_the_check_catches_english_labels():
    html = ('<header><button title="Switch to dark mode"></button></header><a title="Permanent link">¶</a>'
            '<nav><a>English</a><a>reference_impl.amp</a><a>GPU</a><a>torch.compile と autocast</a></nav>'
            '<article><h1>404 - Not found</h1><pre>print("not an interface")</pre></article>'
            '<p class="doc doc-class-bases">Bases: <code>Exception</code></p><p class="doc doc-class-bases">基底クラス: <code>Exception</code></p>'
            '<footer>Code examples are tested</footer>')
    found, _ = english_strings(html)
    assert found == ["title='Switch to dark mode'", "title='Permanent link'", "text 'Bases:'", "text 'Code examples are tested'"], found
    found, _ = english_strings(html, CHROME + ", article")
    assert "text '404 - Not found'" in found, found


# "# comment" at the end of a line of code (not inside a string: "#" after a quote or a word character)
CODE_COMMENT = re.compile(r"(?<![\w'\"])#\s+(.*\S)\s*$")


def english_comments(html: str) -> list[str]:
    """The comments with English words and no Japanese in the code blocks of a page's article."""
    from bs4 import BeautifulSoup

    tree = BeautifulSoup(html, "html.parser")
    found = []
    for pre in tree.select("article pre"):
        for line in pre.get_text().splitlines():
            match = CODE_COMMENT.search(line)
            if match and ENGLISH.search(match.group(1)) and not JAPANESE.search(match.group(1)):
                found.append(match.group(1))
    return found


def test_api_reference_examples_have_japanese_comments(built_site):
    """The API reference's docstrings stay English (docs/ja/reference/index.md says why), but the
    comments of their code examples are shown in Japanese (docs/data/reference_comments.ja.toml,
    docs/hooks/api_labels.py), like every code block of the Japanese site."""
    site = Site(built_site)
    pages = [p for p in site.pages() if p.relative_to(site.root).parts[:2] == ("ja", "reference")]
    assert len(pages) >= 5
    problems = {str(p.relative_to(site.root)): english_comments(p.read_text(encoding="utf-8")) for p in pages}
    problems = {page: found for page, found in problems.items() if found}
    assert not problems, f"English comments in the Japanese API reference (add them to docs/data/reference_comments.ja.toml): {problems}"


def test_the_comment_check_catches_english():
    html = ('<article><pre><code>scaler.step(opt)  # skipped if a gradient is inf/NaN\n'
            'x = "#not a comment"  # スキップされる\n>>> y  # AMD\n</code></pre></article>')
    assert english_comments(html) == ["skipped if a gradient is inf/NaN"]


# Japanese text in the fonts the page names (README "Lighthouse": where none of them has the glyphs,
# Chromium looks each run of Japanese text up in the system's fallback fonts, and layout took 3-5
# times as long as on the English twin). A span of Japanese only is put into a paragraph and into a
# code block's comment; the fonts Chromium drew it with must be among the families its computed
# font-family names (.ci/setup installs the IPA fonts, which site.css names last).
PROBE = """(where) => {
    const host = document.querySelector(where);
    if (!host) return null;
    const span = document.createElement('span');
    span.textContent = '日本語のテキスト、かな・カナ。';
    span.setAttribute('data-font-probe', where);
    host.appendChild(span);
    return getComputedStyle(span).fontFamily;
}"""


def _families(font_family: str) -> set[str]:
    return {name.strip().strip('"').strip("'") for name in font_family.split(",")}


def test_japanese_text_is_set_in_a_font_the_page_names(built_site, browser, base_url):
    page = browser.new_page()
    try:
        page.goto(base_url + "ja/amp/memory/")
        cdp = page.context.new_cdp_session(page)
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        for where in ("article p", "article .highlight code .c1"):
            font_family = page.evaluate(PROBE, where)
            assert font_family, f"no {where} on ja/amp/memory/"
            root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
            node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f'[data-font-probe="{where}"]'})["nodeId"]
            drawn = {f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]}
            assert drawn and drawn <= _families(font_family), (
                f"Japanese text in {where} drawn with {drawn}; the page names {font_family}")
    finally:
        page.close()
