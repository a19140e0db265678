"""Results first, on a phone: every benchmark results table shows its case and its result inside a
375 px wide screen, without scrolling sideways.

Each results table is rendered by benchmarks/report.py as a summary (the case, the result, the
spread) in ``div.bench-result``, with the full table folded under it; docs/overrides/assets/site.css
lets the summary's first column break anywhere so that a long name cannot push the result off the
screen. This test opens, in headless Chromium at 375 px, every page of both languages that
includes a results table and checks, row by row, that the first two cells (case and result) end
inside the viewport while nothing has been scrolled.
"""

from __future__ import annotations

import json
import re

import pytest

from benchmarks.catalog import Msg
from benchmarks.report import RESULT_HEADERS, summary_layout
from docs_tools.docs_model import DOCS, REPO
from tests.support.site_fixtures import Watched

pytestmark = [pytest.mark.site]

PHONE = {"width": 375, "height": 740}
INCLUDE = re.compile(r'(?m)^\s*--8<-- "(benchmarks/results/[^"]+?)(?:\.ja)?\.md"\s*$')


def results_tables(lang: str) -> dict[str, list[str]]:
    """Page URL path (``quantization/dynamic/``) -> the results files its tables come from, in page order.

    Only tables with a result column count (`summary_layout`); the environment table has none.
    """
    pages = {}
    for md in sorted((DOCS / lang).rglob("*.md")):
        cases = []
        for stem in INCLUDE.findall(md.read_text(encoding="utf-8")):
            data = json.loads((REPO / f"{stem}.json").read_text(encoding="utf-8"))
            if summary_layout(data["columns"]) is not None:
                cases.append(stem)
        if cases:
            rel = md.relative_to(DOCS / lang).with_suffix("")
            path = "" if rel.as_posix() == "index" else (rel.parent if rel.name == "index" else rel).as_posix() + "/"
            pages[path] = cases
    return pages


KEY_CELLS = """() => {
  const width = document.documentElement.clientWidth;
  return {
    width,
    scrolled: [window.scrollX, ...[...document.querySelectorAll(".md-typeset__scrollwrap")].map(e => e.scrollLeft)]
      .some(x => x !== 0),
    tables: [...document.querySelectorAll("article .bench-result table")].map(table => ({
      result_header: table.querySelectorAll("thead th")[1].textContent.trim(),
      rows: [...table.querySelectorAll("tr")].map(tr => {
        const [c, r] = [...tr.children].slice(0, 2).map(e => e.getBoundingClientRect());
        return {text: tr.children[0].textContent.trim(), case_left: c.left, case_right: c.right, result_right: r.right};
      }),
    })),
  };
}"""


def test_the_pages_with_results_tables_are_found():
    pages = results_tables("en")
    assert {"benchmarks/", "quantization/dynamic/", "amp/performance/"} <= set(pages)
    assert results_tables("ja").keys() == pages.keys()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_each_results_table_shows_case_and_result_on_a_phone(browser, base_url, lang):
    pages = results_tables(lang)
    result_headers = {Msg(key).render(lang) for key in RESULT_HEADERS}
    watched = Watched(browser, base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    problems = []
    try:
        for path, cases in pages.items():
            watched.page.goto(f"{base_url}{lang}/{path}", wait_until="load")
            found = watched.page.evaluate(KEY_CELLS)
            where = f"{lang}/{path}"
            assert found["width"] == PHONE["width"], f"{where}: the page is {found['width']} px wide at 375 px"
            assert not found["scrolled"], f"{where}: something was scrolled sideways before measuring"
            if len(found["tables"]) != len(cases):
                problems.append(f"{where}: {len(found['tables'])} summary tables (div.bench-result), "
                                f"{len(cases)} results included ({', '.join(cases)})")
                continue
            for case, table in zip(cases, found["tables"]):
                if table["result_header"] not in result_headers:
                    problems.append(f"{where} {case}: second column is {table['result_header']!r}, not a result")
                for row in table["rows"]:
                    right = max(row["case_right"], row["result_right"])
                    if row["case_left"] < 0 or right > found["width"]:
                        problems.append(f"{where} {case}: {row['text'][:60]!r} reaches {right:.0f} px "
                                        f"(case and result must end within {found['width']} px)")
        watched.check_clean()
    finally:
        watched.context.close()
    assert not problems, "results that a phone reader has to scroll sideways to see:\n" + "\n".join(problems)
