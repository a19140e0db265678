"""The support matrix on a phone and on a desktop, in Chromium, both languages.

docs/hooks/support_matrix.py gives every cell of the matrix's tables ``data-label`` (its column's
header); docs/overrides/assets/site.css turns each row into a card below 45em, the hardware as its
title and one "header: value" line per column. At 375 px every cell must end inside the screen
with its column's name shown in front of it, nothing scrolled sideways; at 1280 px the tables stay
tables with their header row.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.support.site_fixtures import Watched

REPO = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.site]

PHONE = {"width": 375, "height": 740}
TABLES = len(tomllib.loads((REPO / "docs" / "data" / "support_matrix.toml").read_text(encoding="utf-8"))["table"])
DESKTOP = {"width": 1280, "height": 900}

CELLS = """() => {
  const width = document.documentElement.clientWidth;
  const tables = [...document.querySelectorAll("article div.support-matrix table")];
  return {
    width,
    scrolled: [window.scrollX, ...[...document.querySelectorAll(".md-typeset__scrollwrap")].map(e => e.scrollLeft)]
      .some(x => x !== 0),
    tables: tables.map(table => ({
      headers: [...table.querySelectorAll("thead th")].map(th => th.textContent.trim()),
      header_shown: table.querySelector("thead").getBoundingClientRect().height > 2,
      display: getComputedStyle(table).display,
      rows: [...table.querySelectorAll("tbody tr")].map(tr => [...tr.children].map((td, i) => {
        const r = td.getBoundingClientRect();
        const before = getComputedStyle(td, "::before").content;
        return {text: td.textContent.trim(), label: td.dataset.label, before, left: r.left, right: r.right};
      })),
    })),
  };
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_cell_fits_a_phone_with_its_column_name(browser, base_url, lang):
    watched = Watched(browser, base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    problems = []
    try:
        watched.page.goto(f"{base_url}{lang}/support-matrix/", wait_until="load")
        found = watched.page.evaluate(CELLS)
        assert found["width"] == PHONE["width"], f"the page is {found['width']} px wide at 375 px"
        assert not found["scrolled"], "something was scrolled sideways before measuring"
        assert len(found["tables"]) == TABLES, f"{len(found['tables'])} support-matrix tables, the data has {TABLES}"
        for n, table in enumerate(found["tables"]):
            assert table["display"] == "block" and not table["header_shown"], f"table {n}: not in the card layout"
            for row in table["rows"]:
                for i, cell in enumerate(row):
                    where = f"table {n}, {row[0]['text']!r}, column {table['headers'][i]!r}"
                    if cell["label"] != table["headers"][i]:
                        problems.append(f"{where}: data-label {cell['label']!r}")
                    if i and cell["before"].strip('"') != table["headers"][i]:
                        problems.append(f"{where}: shows {cell['before']!r} before its value")
                    if cell["left"] < 0 or cell["right"] > found["width"]:
                        problems.append(f"{where}: spans {cell['left']:.0f}–{cell['right']:.0f} px")
        watched.check_clean()
    finally:
        watched.context.close()
    assert not problems, "support-matrix cells a phone reader cannot read in place:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_tables_stay_tables_on_a_desktop(browser, base_url, lang):
    watched = Watched(browser, base_url, viewport=DESKTOP)
    try:
        watched.page.goto(f"{base_url}{lang}/support-matrix/", wait_until="load")
        found = watched.page.evaluate(CELLS)
        assert len(found["tables"]) == TABLES
        for table in found["tables"]:
            assert table["display"] != "block" and table["header_shown"], table["display"]
            assert all(cell["before"] in ("none", "normal") for row in table["rows"] for cell in row)
        watched.check_clean()
    finally:
        watched.context.close()
