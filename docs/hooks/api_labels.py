"""The API reference's labels in Japanese words (hook; the ja build), and unique line anchors (both).

mkdocstrings-python translates its section titles and table headers itself, into katakana
calques (「デスクリプション」「タイプ」「発生：」). This hook replaces them, in the
rendered reference pages, with the terms a Japanese reference manual uses. The label of a
class's base classes ("Bases: Exception") is not translated by mkdocstrings at all (its
class template writes the English word): it becomes 「基底クラス:」 here.

The comments in the reference's code examples are shown in Japanese, from
docs/data/reference_comments.ja.toml (the docstrings themselves stay English: see that file);
an entry that no page uses fails the build, so a changed docstring cannot leave it stale.
"""

from __future__ import annotations

import re
import tomllib

from bs4 import NavigableString
from mkdocs.exceptions import PluginError

from _common import DOCS, edited, lang, page_tree

COMMENTS_FILE = DOCS / "data" / "reference_comments.ja.toml"
COMMENTS: dict[str, str] = tomllib.loads(COMMENTS_FILE.read_text(encoding="utf-8"))
# "# <comment>" at the end of a line of code (the text of a highlighted comment span, or a line
# of an unhighlighted block); the English must be the whole comment, up to the end of the line.
COMMENT = re.compile(r"#\s+(" + "|".join(re.escape(k) for k in sorted(COMMENTS, key=len, reverse=True)) + r")[ \t]*$", re.M)
used: set[str] = set()

LABELS = {
    "デスクリプション": "説明",
    "タイプ": "型",
    "デフォルト": "既定値",
    "名前": "名前",
    "戻り値：": "戻り値:",
    "例：": "例:",
    "引数：": "引数:",
    "発生：": "送出する例外:",
    "属性：": "属性:",
    "モジュール：": "モジュール:",
    "クラス：": "クラス:",
    "関数：": "関数:",
    "パラメータ：": "引数:",
    "返り値：": "戻り値:",
    "その他のパラメータ：": "その他の引数:",
    "警告：": "警告:",
    "生成：": "生成する値:",
}

# mkdocstrings-python's class template: <p class="doc doc-class-bases">Bases: <code>…</code>, …</p>
BASES = ("Bases:", "基底クラス:")


def unique_line_anchors(tree) -> bool:
    """mkdocstrings highlights each signature and example on its own, so every block's line anchors
    (anchor_linenums in mkdocs.yml) were __codelineno-0-1, -2, ...: the same ids many times on one
    page, and a line's link went to the first block's line. Each block gets its own number here."""
    changed = False
    for n, pre in enumerate(tree.select("pre")):
        for a in pre.select('a[id^="__codelineno-0-"]'):
            line = a["id"].removeprefix("__codelineno-0-")
            a["id"] = a["name"] = f"__codelineno-{n}-{line}"
            a["href"] = f"#__codelineno-{n}-{line}"
            changed = True
    return changed


def on_page_content(html, page, config, **kwargs):
    if not page.file.src_uri.startswith("reference/"):
        return html
    tree = page_tree(html, page)  # parsed once for every hook (_common.py)
    changed = unique_line_anchors(tree)  # both languages
    if lang(config) != "ja":
        return edited(html, page) if changed else html
    for el in tree.select("th, span.doc-section-title"):
        text = el.get_text(strip=True)
        if text in LABELS and LABELS[text] != text:
            el.string = LABELS[text]
            changed = True
    for el in tree.select("p.doc-class-bases"):
        first = el.contents[0] if el.contents else None
        if not (isinstance(first, NavigableString) and first.strip().startswith(BASES[0])):
            raise PluginError(
                f"api_labels: {page.file.src_uri}: a class's bases no longer start with {BASES[0]!r} "
                f"({el.get_text(' ', strip=True)[:60]!r}); mkdocstrings-python's class template changed: "
                "update BASES in docs/hooks/api_labels.py"
            )
        first.replace_with(first.replace(BASES[0], BASES[1], 1))
        changed = True
    for text in [t for pre in tree.select("pre") for t in pre.find_all(string=COMMENT)]:
        text.replace_with(COMMENT.sub(_japanese, str(text)))
        changed = True
    return edited(html, page) if changed else html


def _japanese(match: re.Match) -> str:
    used.add(match.group(1))
    return "# " + COMMENTS[match.group(1)]


def on_pre_build(config, **kwargs):
    used.clear()


def on_post_build(config, **kwargs):
    if lang(config) != "ja":
        return
    stale = sorted(set(COMMENTS) - used)
    if stale:
        raise PluginError(
            f"api_labels: {COMMENTS_FILE.relative_to(DOCS.parent)}: no code example of the API reference has "
            f"these comments any more: {stale}; a docstring changed: update the keys"
        )
