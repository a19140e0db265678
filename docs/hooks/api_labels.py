"""The API reference's labels in Japanese words (hook; the ja build only).

mkdocstrings-python translates its section titles and table headers itself, into katakana
calques (「デスクリプション」「タイプ」「発生：」). This hook replaces them, in the
rendered reference pages, with the terms a Japanese reference manual uses.
"""

from __future__ import annotations

from _common import edited, lang, page_tree

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


def on_page_content(html, page, config, **kwargs):
    if lang(config) != "ja":
        return html
    tree = page_tree(html, page)  # parsed once for every hook (_common.py)
    changed = False
    for el in tree.select("th, span.doc-section-title"):
        text = el.get_text(strip=True)
        if text in LABELS and LABELS[text] != text:
            el.string = LABELS[text]
            changed = True
    return edited(html, page) if changed else html
