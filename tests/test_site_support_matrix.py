"""The support matrix on a phone and on a desktop, in Chromium, both languages; its filter (issue 42).

docs/hooks/support_matrix.py gives every cell of the matrix's tables ``data-label`` (its column's
header); docs/overrides/assets/site.css turns each row into a card below 45em, the hardware as its
title and one "header: value" line per column. At 375 px every cell must end inside the screen
with its column's name shown in front of it, nothing scrolled sideways, and no column name broken
inside a word; at 1280 px the tables stay tables with their header row.

The filter (docs/hooks/support_matrix.py, docs/overrides/assets/support-matrix.js): at 375 px a
reader reaches both lists and the button with the keyboard, each by its label in the page's
language; choosing a GPU and a format leaves that GPU's row in the tables with that format, those
columns only, says how many tables show in a status line, puts the choice in the address, and the
button shows everything again; an address with the choice opens filtered. Without JavaScript the
form is not shown and every row is. The install note comes after the matrix, not on the first screen.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.support.site_fixtures import Watched

REPO = Path(__file__).resolve().parents[1]
DATA = tomllib.loads((REPO / "docs" / "data" / "support_matrix.toml").read_text(encoding="utf-8"))
MESSAGES = {lang: tomllib.loads((REPO / "docs" / "data" / f"messages.{lang}.toml").read_text(encoding="utf-8"))["support_matrix"]
            for lang in ("ja", "en")}

pytestmark = [pytest.mark.site]

PHONE = {"width": 375, "height": 740}
TABLES = len(tomllib.loads((REPO / "docs" / "data" / "support_matrix.toml").read_text(encoding="utf-8"))["table"])
DESKTOP = {"width": 1280, "height": 900}

CELLS = """() => {
  const width = document.documentElement.clientWidth;
  // the narrowest a column name can be in the cell's font, broken where the browser may break it
  const probe = document.createElement("span");
  probe.style.cssText = "position:absolute;visibility:hidden;width:min-content;overflow-wrap:normal;word-break:normal";
  document.body.appendChild(probe);
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
        const b = getComputedStyle(td, "::before");
        probe.style.font = b.font;
        probe.textContent = td.dataset.label;
        const value = td.querySelector(".support-matrix__value").getBoundingClientRect();
        const room = value.left - r.left - parseFloat(getComputedStyle(td).paddingLeft);
        return {text: td.textContent.trim(), label: td.dataset.label, before, left: r.left, right: r.right,
                wrap: [b.overflowWrap, b.wordBreak], room, needs: probe.getBoundingClientRect().width};
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
                    # the column name breaks between words only (「GradScaler」 not as 「GradSca」 + 「ler」)
                    # and still fits its cell
                    if i and (cell["wrap"][0] not in ("normal", "break-word") or cell["wrap"][1] == "break-all"):
                        problems.append(f"{where}: the column name may break inside a word ({cell['wrap']})")
                    if i and cell["room"] < cell["needs"] - 0.5:
                        problems.append(f"{where}: the column name needs {cell['needs']:.0f} px, has {cell['room']:.0f} px")
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


VISIBLE = """(rows) => {
  const shown = el => el.getClientRects().length > 0;
  const tables = [...document.querySelectorAll("article div.support-matrix[data-table]")];
  return {
    tables: tables.filter(shown).map(w => {
      const formats = [...w.querySelectorAll("thead th")].map(th => th.dataset.format || null);
      const trs = [...w.querySelectorAll("tbody tr")];
      return {
        id: w.dataset.table,
        rows: trs.filter(shown).map(tr => rows[trs.indexOf(tr)]),
        formats: trs.flatMap(tr => [...tr.children].map((td, i) => shown(td) ? formats[i] : undefined))
          .filter(f => f),
        cells: trs.flatMap(tr => [...tr.children]).filter(shown).map(td => {
          const r = td.getBoundingClientRect();
          return [r.left, r.right];
        }),
      };
    }),
    notes: [...document.querySelectorAll(".support-matrix-filter__none")].filter(shown).map(p => p.textContent),
    status: (document.querySelector(".support-matrix-filter__status") || {}).textContent,
    form: !!document.querySelector("form.support-matrix-filter") && shown(document.querySelector("form.support-matrix-filter")),
    width: document.documentElement.clientWidth,
  };
}"""


def _tables_with(fmt: str) -> list[str]:
    return [t for t, table in DATA["table"].items() if fmt in table["formats"].values()]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_phone_reader_narrows_the_matrix_to_their_gpu_and_format(browser, base_url, lang):
    text = MESSAGES[lang]["filter"]
    row, fmt = "sm89", "float8"
    watched = Watched(browser, base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    page = watched.page
    try:
        page.goto(f"{base_url}{lang}/support-matrix/", wait_until="load")
        everything = page.evaluate(VISIBLE, DATA["rows"])
        assert everything["form"], "the filter is not shown"
        assert len(everything["tables"]) == TABLES and all(len(t["rows"]) == len(DATA["rows"]) for t in everything["tables"])
        assert everything["status"] == text["status_all"].format(tables=TABLES)
        # the keyboard reaches the lists by their labels, in the page's language
        hardware = page.get_by_label(text["hardware"], exact=True)
        formats = page.get_by_label(text["format"], exact=True)
        hardware.focus()
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "support-matrix-format"
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == text["reset"]
        assert page.get_by_role("group", name=text["title"]).count() == 1
        hardware.select_option(row)
        formats.select_option(fmt)
        narrowed = page.evaluate(VISIBLE, DATA["rows"])
        expected = _tables_with(fmt)
        assert [t["id"] for t in narrowed["tables"]] == expected, narrowed["tables"]
        for table in narrowed["tables"]:
            assert table["rows"] == [row], table
            assert table["formats"] and set(table["formats"]) == {fmt}, table
            assert all(0 <= left and right <= narrowed["width"] for left, right in table["cells"]), table
        name = text["format_name"][fmt]
        assert narrowed["notes"] == [text["none"].format(format=name)] * (TABLES - len(expected)), narrowed["notes"]
        assert narrowed["status"] == text["status"].format(tables=len(expected), total=TABLES)
        assert page.url.endswith(f"/support-matrix/?hardware={row}&format={fmt}"), page.url
        # a shared address opens filtered
        page.goto(page.url, wait_until="load")
        assert page.evaluate(VISIBLE, DATA["rows"])["tables"] == narrowed["tables"]
        page.get_by_role("button", name=text["reset"]).click()
        page.wait_for_function("() => !location.search")
        again = page.evaluate(VISIBLE, DATA["rows"])
        assert len(again["tables"]) == TABLES and not again["notes"]
        assert all(len(t["rows"]) == len(DATA["rows"]) for t in again["tables"])
        watched.check_clean()
    finally:
        watched.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_without_javascript_the_whole_matrix_shows_and_the_install_note_comes_after_it(browser, base_url, lang):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{base_url}{lang}/support-matrix/", wait_until="load")
        found = page.evaluate(VISIBLE, DATA["rows"])
        assert not found["form"], "a filter that does nothing without JavaScript is shown"
        assert len(found["tables"]) == TABLES and all(len(t["rows"]) == len(DATA["rows"]) for t in found["tables"])
        where = page.evaluate("""() => {
          const note = document.querySelector("article .reader-package");
          const tables = document.querySelectorAll("article div.support-matrix");
          return {note: note && note.getBoundingClientRect().top + scrollY,
                  first: tables[0].getBoundingClientRect().top + scrollY,
                  last: tables[tables.length - 1].getBoundingClientRect().bottom + scrollY};
        }""")
        assert where["note"] is not None, "the page's install note is missing"
        assert where["note"] > where["last"] > where["first"] and where["note"] > PHONE["height"], where
    finally:
        context.close()
