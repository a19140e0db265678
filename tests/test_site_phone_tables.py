"""Tables that keep their meaning on a 375 px phone (issue 33), in Chromium.

The API reference's tables (mkdocstrings) become one block per row below 45em: no table is wider
than its box, each description is as wide as the text column, and a default keeps its label; on a
desktop they stay tables. gpu/tf32's format table fits whole. The CSS: docs/overrides/assets/site.css.
"""

from __future__ import annotations

import pytest

from tests.support.site_fixtures import Watched

pytestmark = [pytest.mark.site]

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
REFERENCE = ["reference/storage/", "reference/quantization/", "reference/amp/", "reference/checkpoint/", "reference/bench/"]

MEASURE = """() => {
  const column = document.querySelector("article").getBoundingClientRect();
  const tables = Array.from(document.querySelectorAll("article table"));
  const wide = tables.filter(t => {
    const box = t.closest(".md-typeset__scrollwrap") || t.parentElement;
    return t.scrollWidth > box.clientWidth + 1 || t.getBoundingClientRect().right > column.right + 1;
  }).map(t => Array.from(t.querySelectorAll("th")).map(th => th.textContent.trim()).join("|"));
  const descriptions = Array.from(document.querySelectorAll("article tr.doc-section-item .doc-md-description"));
  // The room a description gets: its cell, whatever the length of its text.
  const narrow = descriptions.filter(d => d.closest("td").getBoundingClientRect().width < column.width * 0.8)
    .map(d => `${Math.round(d.closest("td").getBoundingClientRect().width)} of ${Math.round(column.width)}: ${d.textContent.trim().slice(0, 40)}`);
  const cut = descriptions.filter(d => d.getBoundingClientRect().right > column.right + 1).length;
  const defaults = Array.from(document.querySelectorAll("article tr.doc-section-item > td:has(> .doc-md-description) + td"))
    .map(td => getComputedStyle(td, "::before").content);
  return {tables: tables.length, wide, descriptions: descriptions.length, narrow, cut, defaults,
          rowDisplay: descriptions.length ? getComputedStyle(descriptions[0].closest("tr")).display : null};
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_api_reference_tables_fit_a_phone(browser, base_url, lang):
    watched = Watched(browser, base_url, **PHONE)
    try:
        for path in REFERENCE:
            watched.page.goto(f"{base_url}{lang}/{path}", wait_until="load")
            got = watched.page.evaluate(MEASURE)
            assert got["tables"] >= 5 and got["descriptions"] >= 5, (path, got)
            assert not got["wide"], f"{lang}/{path}: tables wider than the screen: {got['wide']}"
            assert got["cut"] == 0, f"{lang}/{path}: {got['cut']} descriptions cut off at the screen's edge"
            assert not got["narrow"], f"{lang}/{path}: descriptions squeezed into a column: {got['narrow'][:5]}"
            assert got["rowDisplay"] == "block"
            label = '"既定値: "' if lang == "ja" else '"Default: "'
            assert got["defaults"] and set(got["defaults"]) == {label}, (path, set(got["defaults"]))
        watched.check_clean()
    finally:
        watched.context.close()


def test_api_reference_tables_stay_tables_on_a_desktop(browser, base_url):
    watched = Watched(browser, base_url, **DESKTOP)
    try:
        watched.page.goto(f"{base_url}en/reference/amp/", wait_until="load")
        got = watched.page.evaluate(MEASURE)
        assert got["rowDisplay"] == "table-row"
        assert set(got["defaults"]) == {"none"}
        assert not got["wide"]
    finally:
        watched.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_tf32_format_table_fits_a_phone(browser, base_url, lang):
    watched = Watched(browser, base_url, **PHONE)
    try:
        watched.page.goto(f"{base_url}{lang}/gpu/tf32/#format", wait_until="load")
        got = watched.page.evaluate(MEASURE)
        assert got["tables"] == 1 and not got["wide"], got
        # Every column, the last one included, is on the screen.
        right = watched.page.evaluate("() => Math.max(...Array.from(document.querySelectorAll('article table th')).map(th => th.getBoundingClientRect().right))")
        assert right <= 375
        watched.check_clean()
    finally:
        watched.context.close()
