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
        text += f"{messages['sep']}[{messages['measured']}]({cell['measured']['href']})"
        refs.insert(0, cell["measured"]["note"])
    if refs:
        text += messages["note_sep"].join(f"[^{r}]" for r in refs)  # between footnote marks: 「¹,⁵」, not 「¹、⁵」
    return text


def render_table(table_id: str, data: dict, messages: dict) -> str:
    """The Markdown table ``table_id`` (rows in the data's order), inside a ``div.support-matrix``."""
    table = data["table"].get(table_id)
    if table is None:
        raise SupportMatrixError(f"{PAGE}: placeholder for table {table_id!r}, which docs/data/support_matrix.toml does not have")
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
    return f'<div class="{WRAPPER}" markdown>\n\n' + "\n".join(lines) + "\n\n</div>"


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
    from _common import edited, page_tree

    tree = page_tree(html, page)  # parsed once for every hook (_common.py)
    for table in tree.select(f"div.{WRAPPER} table"):
        headers = [" ".join(th.get_text().split()) for th in table.select("thead th")]  # as the reader sees it
        for tr in table.select("tbody tr"):
            for th, td in zip(headers, tr.find_all("td")):
                td["data-label"] = th
                # the value and its footnote refs in one element: one item of the phone layout's grid
                value = tree.new_tag("span", attrs={"class": "support-matrix__value"})
                for child in list(td.contents):
                    value.append(child.extract())
                td.append(value)
    return edited(html, page)
