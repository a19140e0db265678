"""Search that finds: readers' queries typed into Material's search box in Chromium.

The queries are in tests/data/search_queries.yml, each with the page a reader asking it
wants (or a list of pages where more than one answers it); that page must be among the first
three results for as many queries as when the level was measured, less one (``MEASURED``), and
the test prints every miss; no query may find nothing at all. The queries are written from
readers' questions: single words, abbreviations (bf16, fp8, AMP, QAT), several words and mixed
scripts (「GradScaler 使い方」, 「int8量子化で精度がどれくらい落ちる」: 精度 for the site's 正解率),
long-vowel spellings both ways (データローダー for the site's データローダ), API names and error
messages pasted as they are. At least half of them have several words or mix scripts. All queries
of a language run in one page load. Each normalisation of the index and the query (Japanese words,
long vowels, synonyms, ...) is also tested on its own, without the site: tests/test_search_normalisation.py.
The "missing" line of a result (「検索に含まれない」) may only list words the reader typed.
How search reads them: docs/hooks/search_query.py and search_query.js.
A query that fails: add it to the data file first, then a synonym (docs/search-synonyms.yml).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
import yaml

pytestmark = [pytest.mark.site]

QUERY_FILE = Path(__file__).parent / "data" / "search_queries.yml"
QUERIES = {
    lang: [(item["q"], tuple(item["page"]) if isinstance(item["page"], list) else item["page"]) for item in items]
    for lang, items in yaml.safe_load(QUERY_FILE.read_text(encoding="utf-8")).items()
}
#: Queries whose page was among the first three, of all queries, measured on the built site (Chromium)
#: when the level was set: 2026-11-29, with issue 42's misses added, 107 of 107 (en) and 116 of 116 (ja). The test
#: requires the measured level less one query: one page that stops answering its query passes, a lost
#: normalisation (which drops several queries at once) does not. A query added or removed changes
#: the count: measure again (``pytest tests/test_site_search.py -s`` prints it) and write it here.
#: Measured again 2026-11-29 with the queries for the sections added after review 11-29b (all of
#: them found): 158 of 159 (en; missed: "bf16 training not faster on RTX 4090", which now ranks
#: support-matrix/, gpu/mx-formats/ and troubleshooting/ first) and 168 of 169 (ja; missed:
#: 「量子化 精度 低下」).
#: Measured again 2026-11-29 (evening) with the queries for the reader-question sections of issue 41's
#: tally (the bfloat16 scaler, the float8 inference config, ModelOpt, the RTX 50 and float16 generation
#: entries, FSDP2 recomputation, bitsandbytes' .to, torchao's older message): 170 of 171 (en; missed: the
#: same RTX 4090 query) and 180 of 181 (ja; missed: the same 「量子化 精度 低下」).
#: Measured again 2026-11-30 with the queries for gpu/mx-formats#fp8-or-mxfp8 and the build check of
#: #te-nvfp4 (two per language): 172 of 173 (en) and 182 of 183 (ja), the same two misses.
MEASURED = {"en": (172, 173), "ja": (182, 183)}
LATIN = re.compile(r"[A-Za-z0-9]")
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def several_words_or_scripts(query: str) -> bool:
    return len(query.split()) > 1 or bool(LATIN.search(query) and JAPANESE.search(query))


READ_RESULTS = """() => [...document.querySelectorAll(".md-search-result__item > a")].map(a => a.getAttribute("href"))"""
READ_MISSING = """() => [...document.querySelectorAll(".md-search-result__terms del")].map(d => d.textContent)"""


def top_pages(hrefs: list[str], lang: str, n: int = 3) -> list[str]:
    """The first n distinct pages among the result links, as paths below /<lang>/ (no ?h=, no #section)."""
    pages: list[str] = []
    for href in hrefs:
        path = urlsplit(href).path
        page = path.split(f"/{lang}/", 1)[-1]
        if page not in pages:
            pages.append(page)
    return pages[:n]


# One query, as a reader types it: the box emptied (and the old results gone), the query put in,
# and Material's keyup handler; then the results, as soon as the first one shows. In the page, in
# one call: the same results as driving the box from Python, a third faster over 216 queries.
# Until the search worker has loaded the index (fetched when the box is first focused:
# docs/overrides/partials/search-on-demand.html) and built it (with lunr.ja and
# docs/hooks/search_query.js), a query finds nothing; the wait for results allows for that.
SEARCH = """async (query) => {
  const box = document.querySelector("input.md-search__input");
  const items = () => document.querySelectorAll(".md-search-result__item");
  const until = async (ready, ms) => {
    const end = performance.now() + ms;
    while (!ready()) {
      if (performance.now() > end) return false;
      await new Promise(r => setTimeout(r, 10));
    }
    return true;
  };
  box.value = "";
  box.dispatchEvent(new KeyboardEvent("keyup"));
  if (!await until(() => items().length === 0, 5000)) throw new Error("the previous query's results stayed");
  box.value = query;
  box.dispatchEvent(new KeyboardEvent("keyup"));
  await until(() => items().length > 0, 30000);
  return [...document.querySelectorAll(".md-search-result__item > a")].map(a => a.getAttribute("href"));
}"""


def search(page, query: str) -> list[str]:
    return page.evaluate(SEARCH, query)


def typed(word: str, query: str) -> bool:
    """Whether a word of the missing line is one the reader typed (in lower case; Japanese
    words as the query wrote them, a katakana word perhaps joined from ICU's pieces)."""
    return word.lower() in query.lower()


def page_exists(lang: str, page: str) -> bool:
    """Whether a page of the query file (a path below /<lang>/) has a source in docs/<lang>/."""
    docs = QUERY_FILE.parents[2] / "docs" / lang
    stem = page.strip("/")
    names = [f"{stem}.md", f"{stem}/index.md", f"{stem}.ipynb"] if stem else ["index.md"]
    return any((docs / name).is_file() for name in names)


def test_query_set_is_as_readers_type():
    for lang, queries in QUERIES.items():
        assert len(queries) >= 60, lang
        unknown = [p for _, pages in queries for p in ((pages,) if isinstance(pages, str) else pages) if not page_exists(lang, p)]
        assert not unknown, f"{lang}: pages that do not exist: {unknown}"
        assert 2 * sum(several_words_or_scripts(q) for q, _ in queries) >= len(queries), lang


def test_the_measured_level_is_for_this_query_set():
    for lang, queries in QUERIES.items():
        found, total = MEASURED[lang]
        assert total == len(queries), f"{lang}: {len(queries)} queries, the level was measured on {total}: measure again"
        assert 0 < found <= total


@pytest.mark.parametrize("lang", sorted(QUERIES))
def test_search_finds_the_page(browser, base_url, lang):
    """All queries of a language in one page load: none finds nothing at all, the missing line lists only
    words the reader typed, and the page is in the top three for the measured level less one query."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    misses: list[str] = []
    empty: list[str] = []
    fragments: list[str] = []
    try:
        page.goto(f"{base_url}{lang}/", wait_until="networkidle")
        page.locator("input.md-search__input").click()
        for query, expected in QUERIES[lang]:
            wanted = expected if isinstance(expected, tuple) else (expected,)
            hrefs = [urljoin(page.url, h) for h in search(page, query)]
            if not hrefs:
                empty.append(query)
            found = top_pages(hrefs, lang)
            if not set(wanted) & set(found):
                misses.append(f"{query!r}: wanted {' or '.join(wanted)} in the top 3, got {found}")
            untyped = sorted({w for w in page.evaluate(READ_MISSING) if not typed(w, query)})
            if untyped:
                fragments.append(f"{query!r}: the missing line shows {untyped}")
    finally:
        context.close()
    total = len(QUERIES[lang])
    print(f"{lang}: {total - len(misses)}/{total} queries find their page", *misses, sep="\n  ")
    assert not errors, errors
    assert not empty, f"queries that find nothing at all (the reader sees an empty list): {empty}"
    assert not fragments, "words the reader did not type:\n" + "\n".join(fragments)
    measured, _ = MEASURED[lang]
    assert total - len(misses) >= measured - 1, (
        f"{total - len(misses)} of {total} queries find their page; {measured} did when measured, "
        f"at least {measured - 1} must:\n" + "\n".join(misses))


@pytest.mark.parametrize("lang", sorted(QUERIES))
def test_the_index_is_fetched_when_the_reader_reaches_for_search(browser, base_url, lang):
    """A page loads without its 1.2 MB search index (issue 42); a tap on the search icon fetches
    it, and a query typed at once finds its page; a page opened from a result (``?h=``, its words
    highlighted) fetches it at load."""
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    asked: list[str] = []
    context.on("request", lambda r: asked.append(urlsplit(r.url).path))
    index = f"/{lang}/search/search_index.json"
    try:
        page = context.new_page()
        page.goto(f"{base_url}{lang}/amp/", wait_until="networkidle")
        assert index not in asked, "the search index was fetched at page load"
        with page.expect_response(lambda r: urlsplit(r.url).path == index and r.ok):
            page.locator("label.md-header__button[for=__search]").first.tap()
        query, expected = next((q, p) for q, p in QUERIES[lang] if isinstance(p, str))
        assert expected in top_pages([urljoin(page.url, h) for h in search(page, query)], lang), query
        asked.clear()
        page = context.new_page()
        page.goto(f"{base_url}{lang}/amp/?h=autocast", wait_until="networkidle")
        assert index in asked, "a page opened from a search result did not fetch the index to highlight its words"
    finally:
        context.close()


def test_the_search_dialog_has_its_name_and_the_override_follows_material():
    """The search dialog is named (docs/overrides/partials/search.html; Lighthouse's one accessibility
    failure on every page, issue 42), and the override is Material's installed partial but for that
    name, so an upgrade of Material that changes the partial fails here instead of being hidden."""
    from pathlib import Path as _Path

    import material

    theirs = (_Path(material.__file__).parent / "templates" / "partials" / "search.html").read_text(encoding="utf-8")
    ours = (QUERY_FILE.parents[2] / "docs" / "overrides" / "partials" / "search.html").read_text(encoding="utf-8")
    strip = lambda text: re.sub(r"\A\{#-.*?-#\}\n", "", text, flags=re.S)  # noqa: E731 - the leading comment
    named = strip(ours).replace(""" aria-label="{{ lang.t('search') }}">""", ">", 1)
    assert named != strip(ours), "the override no longer names the dialog"
    assert named == strip(theirs), "Material's partials/search.html changed: copy it again and add the dialog's name"


@pytest.mark.parametrize("lang,name", [("ja", "検索"), ("en", "Search")])
def test_the_built_search_dialog_is_named(built_site, lang, name):
    html = (built_site / lang / "index.html").read_text(encoding="utf-8")
    assert f'<div class="md-search" data-md-component="search" role="dialog" aria-label="{name}">' in html

