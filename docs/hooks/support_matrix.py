"""The support matrix's tables, rendered from data (hook).

``docs/data/support_matrix.toml`` holds every cell of the tables of ``support-matrix.md``: value,
qualifier, footnotes and measured run. Each page holds one placeholder per table,
``<!-- support-matrix: <table id> -->``, and its prose and footnotes; this hook puts the table in
place of the placeholder, with the labels of ``docs/data/messages.<lang>.toml``, so both languages
show the same cells. A placeholder with no table, a table with no placeholder, or a missing label
fails the build.

On the rendered page each cell gets ``data-label`` (its column's header) and its content is wrapped
in ``span.support-matrix__value``; the phone layout of ``docs/overrides/assets/site.css`` (section
"Support matrix") shows the label in front of the value when a table becomes one card per row.

After the page's first paragraph (a phone's first screen) the hook puts a filter
(``form.support-matrix-filter``, in the page's language from ``[support_matrix.filter]`` of the
messages): two lists, the hardware (the data's rows) and the format (the data's ``formats``; each
table's ``formats`` puts every column under one), a button that shows everything again and a status
line that screen readers read out. Each column's header carries ``data-format`` (the rows are the
data's, in the hardware list's order; nothing more per cell: the page is at its HTML budget);
a one-line script right after the form shows it while the page is parsed (before the first
layout, so nothing moves), and ``docs/overrides/assets/support-matrix.js`` (loaded by the page,
``defer``) hides the rows, columns and tables the reader did not choose, and keeps the choice in
the address (``?hardware=sm89&format=float8``). The form is ``hidden`` in the HTML: without
JavaScript the whole matrix shows, and no control that does nothing.

The install note (docs/hooks/reader_package.py) goes below the matrix on this page, before the
section whose command needs the package (``data-reader-package-note`` on its heading), instead of
filling a phone's first screen.

``render_tables(lang)`` is what the tests call (no MkDocs needed).
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
PAGE = "support-matrix.md"
PLACEHOLDER = re.compile(r"^<!-- support-matrix: ([\w-]+) -->$", re.M)
WRAPPER = "support-matrix"  # the class of the <div> around each rendered table


class SupportMatrixError(Exception):
    """The data, a catalog or a page does not fit together; the message says what to fix."""


def load_data() -> dict:
    with open(DATA / "support_matrix.toml", "rb") as f:
        return tomllib.load(f)


def load_messages(lang: str) -> dict:
    with open(DATA / f"messages.{lang}.toml", "rb") as f:
        return tomllib.load(f)["support_matrix"]


def _label(messages: dict, *keys: str) -> str:
    node = messages
    for key in keys:
        if not isinstance(node, dict) or key not in node:
            raise SupportMatrixError(f"docs/data/messages.*.toml: no label support_matrix.{'.'.join(keys)}")
        node = node[key]
    return node


def render_cell(cell: dict, messages: dict) -> str:
    """One cell as Markdown: the value, its qualifier, the measured run, then the footnote refs."""
    text = _label(messages, "value", cell["value"])
    if "qualifier" in cell:
        text = _label(messages, "qualifier", cell["qualifier"]).format(value=text)
    refs = list(cell.get("notes", []))
    if "measured" in cell:
        label = messages["measured"].format(gpu=cell["measured"].get("gpu", "H100"))  # the GPU of the run
        text += f"{messages['sep']}[{label}]({cell['measured']['href']})"
        refs.insert(0, cell["measured"]["note"])
    if refs:
        text += messages["note_sep"].join(f"[^{r}]" for r in refs)  # between footnote marks: 「¹,⁵」, not 「¹、⁵」
    return text


def render_table(table_id: str, data: dict, messages: dict) -> str:
    """The Markdown table ``table_id`` (rows in the data's order), inside a ``div.support-matrix``."""
    table = data["table"].get(table_id)
    if table is None:
        raise SupportMatrixError(f"{PAGE}: placeholder for table {table_id!r}, which docs/data/support_matrix.toml does not have")
    formats = table.get("formats", {})
    if list(formats) != table["columns"] or not set(formats.values()) <= set(data.get("formats", [])):
        raise SupportMatrixError(
            f"docs/data/support_matrix.toml: table {table_id} needs formats = {{ column = format }} for its columns "
            f"{table['columns']}, each format one of the top-level formats {data.get('formats')}; it has {formats}"
        )
    headers = [_label(messages, "hardware")] + [_label(messages, "column", table_id, c) for c in table["columns"]]
    lines = ["| " + " | ".join(headers) + " |", "|" + " --- |" * len(headers)]
    for row in data["rows"]:
        cells = table["cell"].get(row)
        if cells is None:
            raise SupportMatrixError(f"docs/data/support_matrix.toml: table {table_id} has no row {row}")
        missing = [c for c in table["columns"] if c not in cells]
        if missing:
            raise SupportMatrixError(f"docs/data/support_matrix.toml: {table_id}.{row} lacks {missing}")
        values = [render_cell(cells[c], messages) for c in table["columns"]]
        lines.append("| " + " | ".join([_label(messages, "row", row)] + values) + " |")
    return f'<div class="{WRAPPER}" data-table="{table_id}" markdown>\n\n' + "\n".join(lines) + "\n\n</div>"


def render_page(markdown: str, lang: str, data: dict | None = None) -> str:
    """``markdown`` with every placeholder replaced by its table; every table placed exactly once."""
    data = data if data is not None else load_data()
    messages = load_messages(lang)
    found = PLACEHOLDER.findall(markdown)
    twice = {t for t in found if found.count(t) > 1}
    missing = set(data["table"]) - set(found)
    if twice or missing:
        raise SupportMatrixError(
            f"docs/{lang}/{PAGE}: each table needs exactly one placeholder <!-- support-matrix: <id> -->; "
            f"twice: {sorted(twice)}, missing: {sorted(missing)}"
        )
    return PLACEHOLDER.sub(lambda m: render_table(m.group(1), data, messages), markdown)


def render_tables(lang: str, data: dict | None = None) -> dict[str, str]:
    """Every table of the data in ``lang``, by table id (what the tests compare)."""
    data = data if data is not None else load_data()
    messages = load_messages(lang)
    return {t: render_table(t, data, messages) for t in data["table"]}


# -- the hook ------------------------------------------------------------------------------------


def on_page_markdown(markdown, page, config, files, **kwargs):
    if page.file.src_uri != PAGE:
        if PLACEHOLDER.search(markdown):
            from mkdocs.exceptions import PluginError

            raise PluginError(f"{page.file.src_uri}: a support-matrix placeholder outside {PAGE}")
        return markdown
    from _common import lang
    from mkdocs.exceptions import PluginError

    try:
        return render_page(markdown, lang(config))
    except SupportMatrixError as e:
        raise PluginError(str(e)) from e


def on_page_content(html, page, config, files, **kwargs):
    if page.file.src_uri != PAGE:
        return html
    from _common import edited, lang, page_tree
    from mkdocs.utils import get_relative_url

    tree = page_tree(html, page)  # parsed once for every hook (_common.py)
    data = load_data()
    for table in tree.select(f"div.{WRAPPER} table"):
        table_id = table.find_parent("div", class_=WRAPPER)["data-table"]
        formats = [None] + [data["table"][table_id]["formats"][c] for c in data["table"][table_id]["columns"]]
        headers = [" ".join(th.get_text().split()) for th in table.select("thead th")]  # as the reader sees it
        for th, fmt in zip(table.select("thead th"), formats):
            if fmt:
                th["data-format"] = fmt
        for tr in table.select("tbody tr"):
            for th, td in zip(headers, tr.find_all("td")):
                td["data-label"] = th
                # the value and its footnote refs in one element: one item of the phone layout's grid
                value = tree.new_tag("span", attrs={"class": "support-matrix__value"})
                for child in list(td.contents):
                    value.append(child.extract())
                td.append(value)
    first = tree.select_one(f"div.{WRAPPER}")
    if first is not None:
        # on a phone's first screen: after the page's first paragraph (the legend and the tables follow)
        heading = tree.find("h1")
        anchor = heading.find_next_sibling("p") if heading is not None else None
        form = filter_form(tree, data, load_messages(lang(config)))
        if anchor is not None:
            anchor.insert_after(form)
        else:
            first.insert_before(form)
        # shown as the page is parsed, before its first layout: shown later by the deferred script,
        # it pushed the matrix down under the reader (Lighthouse's layout shift 0.17, 2026-11-29);
        # without JavaScript it stays hidden
        unhide = tree.new_tag("script")
        unhide.string = "document.currentScript.previousElementSibling.hidden = false;"
        form.insert_after(unhide)
        script = tree.new_tag("script", attrs={"src": get_relative_url(SCRIPT, page.url), "defer": ""})
        tree.append(script)
        # the install note (reader_package.py, a later hook) before the first section after the matrix
        after = tree.select(f"div.{WRAPPER}")[-1].find_next("h2")
        if after is not None:
            after["data-reader-package-note"] = ""
    return edited(html, page)


SCRIPT = "assets/support-matrix.js"  # docs/overrides/assets/support-matrix.js


def filter_form(tree, data: dict, messages: dict):
    """The filter above the matrix, ``hidden`` until the script shows it (see the module docstring)."""
    text = messages["filter"]
    form = tree.new_tag("form", attrs={
        "class": "support-matrix-filter", "hidden": "", "data-search-exclude": "",
        "data-status-all": text["status_all"], "data-status": text["status"], "data-none": text["none"],
    })
    fieldset = tree.new_tag("fieldset")
    legend = tree.new_tag("legend")
    legend.string = text["title"]
    fieldset.append(legend)
    choices = [
        ("hardware", text["hardware"], text["all_hardware"], [(r, _label(messages, "row", r)) for r in data["rows"]]),
        ("format", text["format"], text["all_formats"], [(f, text["format_name"][f]) for f in data["formats"]]),
    ]
    for name, label_text, everything, options in choices:
        field = tree.new_tag("div", attrs={"class": "support-matrix-filter__field"})
        label = tree.new_tag("label", attrs={"for": f"support-matrix-{name}"})
        label.string = label_text
        select = tree.new_tag("select", attrs={"id": f"support-matrix-{name}", "name": name})
        for value, shown in [("", everything)] + options:
            option = tree.new_tag("option", attrs={"value": value})
            option.string = shown
            select.append(option)
        field.append(label)
        field.append(select)
        fieldset.append(field)
    reset = tree.new_tag("button", attrs={"type": "reset", "class": "md-button"})
    reset.string = text["reset"]
    fieldset.append(reset)
    form.append(fieldset)
    status = tree.new_tag("p", attrs={"class": "support-matrix-filter__status", "role": "status", "aria-live": "polite"})
    form.append(status)
    return form
