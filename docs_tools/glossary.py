"""The site's glossary (docs/glossary.yml): the reader's view and the Japanese style rule.

Generated from the YAML, in both languages:

* ``docs/{ja,en}/glossary.md``: every core term with a one-line definition and a link to the page
  (and section) that explains it, then a short style section with the Japanese variants not used;
* ``docs/includes/abbreviations.{ja,en}.md``: Markdown abbreviations (``*[TF32]: ...``) that
  pymdownx.snippets appends to every page (``auto_append`` in mkdocs.yml / mkdocs.en.yml), so that
  hovering TF32, AMP, QAT, PTQ ... anywhere on the site shows the glossary's definition.

    python -m docs_tools.glossary --write

tests/test_glossary.py fails when a generated file is out of date, when a term's ``see`` link points
at a page or anchor that does not exist, and when Japanese prose (outside code, see
docs_model.prose_lines) uses one of an entry's ``avoid`` patterns (Python regular expressions).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

from docs_tools.docs_model import DOCS, HEADING, HEADING_ID, LANGS, prose_lines

SOURCE = DOCS / "glossary.yml"
INCLUDES = DOCS / "includes"
_PLAIN = re.compile(r"^[^\\()\[\]?*+|^$.{}]+$")

TEXT = {
    "ja": {
        "title": "# 用語集 {#glossary}",
        "intro": (
            "このサイトで使う用語を、一行の説明と、詳しく解説している節へのリンクとあわせてまとめました。"
            "ページ中の AMP、TF32、QAT、PTQ などの略語にマウスポインタを合わせると(スマートフォンではタップすると)、"
            "ここと同じ説明が表示されます。"
        ),
        "see": "解説: ",
        "style_title": "## 表記の決まり {#style}",
        "style_intro": (
            "日本語のページでは、一つの概念に一つの訳語だけを使います。たとえば「精度」は数値を表す細かさだけを指し、"
            "分類器がどれだけ正しく分類するかは「正解率」と書きます。次の表記は使いません(日本語のページはテストで検査しています)。"
        ),
    },
    "en": {
        "title": "# Glossary {#glossary}",
        "intro": (
            "The terms used on this site, each with a one-line definition and a link to the section that "
            "explains it. Hover over an abbreviation such as AMP, TF32, QAT or PTQ on any page (tap it on a "
            "phone) to see the same definition."
        ),
        "see": "Explained in: ",
        "style_title": "## Japanese terms {#style}",
        "style_intro": (
            "The Japanese pages use one term per concept. \"Precision\" (精度) always means how finely a "
            "format resolves numbers; how often a classifier is right is its accuracy (正解率). These "
            "Japanese variants are not used (a test checks the Japanese pages):"
        ),
    },
}


def load() -> dict:
    return yaml.safe_load(SOURCE.read_text(encoding="utf-8"))


def terms(data: dict) -> list[dict]:
    return [term for group in data["groups"] for term in group["terms"]]


def _page_title(lang: str, rel: str) -> str:
    """The H1 of docs/<lang>/<rel>, without its ``{#id}``."""
    for line in (DOCS / lang / rel).read_text(encoding="utf-8").splitlines():
        h = HEADING.match(line)
        if h and len(h.group("hashes")) == 1:
            return HEADING_ID.sub("", h.group("text")).strip()
    raise ValueError(f"docs/{lang}/{rel} has no '# title'")


def _base(name: str) -> str:
    """A term without its parenthesized part: "float32(単精度)" -> "float32"."""
    return re.sub(r"\s*\(.*?\)", "", name).strip()


def _other(term: dict, lang: str) -> str:
    """The term in the other language (without its parenthesized part), where it differs."""
    other = _base(term["en" if lang == "ja" else "ja"])
    if other == _base(term[lang]):
        return ""
    return f"({other})" if lang == "ja" else f" ({other})"


def _headword(term: dict, lang: str) -> str:
    """The term in bold with its anchor, then the other language's name in parentheses. A Japanese
    term that has its own parenthesis (自動混合精度(AMP)) shares one with the English name:
    **自動混合精度**(AMP、automatic mixed precision), never two in a row."""
    other = _other(term, lang)
    inner = re.fullmatch(r"(.*?)\s*\((.*)\)", term[lang]) if lang == "ja" and other else None
    if inner:
        name = other[1:-1]
        if name == inner.group(2):
            # 信号対量子化雑音比(SQNR) and "SQNR (signal-to-...)": the English short form is the
            # abbreviation already in the parenthesis, so name the English in full instead of
            # printing (SQNR、SQNR).
            spelled = re.fullmatch(r".*?\s*\((.*)\)", term["en"])
            if not spelled:
                return f"**{inner.group(1)}**{{#{term['id']}}}({inner.group(2)})"
            name = spelled.group(1)
        return f"**{inner.group(1)}**{{#{term['id']}}}({inner.group(2)}、{name})"
    return f"**{term[lang]}**{{#{term['id']}}}{other}"


def render(lang: str, data: dict | None = None) -> str:
    data = data or load()
    t = TEXT[lang]
    out = [t["title"], "", t["intro"], ""]
    for group in data["groups"]:
        out += [f"## {group[lang]} {{#{group['id']}}}", ""]
        for term in group["terms"]:
            page, _, _anchor = term["see"].partition("#")
            out += [
                _headword(term, lang),
                f":   {term[lang + '_def']}。{t['see']}[{_page_title(lang, page)}]({term['see']})"
                if lang == "ja"
                else f":   {term[lang + '_def'][0].upper()}{term[lang + '_def'][1:]}. {t['see']}[{_page_title(lang, page)}]({term['see']})",
                "",
            ]
    # the variants not used are quoted, not used: textlint (docs/prh.yml) skips them
    out += [t["style_title"], "", t["style_intro"], "", "<!-- textlint-disable -->", ""]
    for term in terms(data):
        if not term.get("avoid"):
            continue
        variants = term.get("shown") or "、".join(a for a in term["avoid"] if _PLAIN.match(a))
        name = term["ja"] if lang == "ja" else f"{term['en']} ({term['ja']})"
        out.append(f"- [{name}](#{term['id']}): {variants}")
    out += ["", "<!-- textlint-enable -->", ""]
    return "\n".join(out)


def render_abbreviations(lang: str, data: dict | None = None) -> str:
    """Markdown abbreviations for every ``abbr`` of every term (appended to each page of ``lang``)."""
    data = data or load()
    lines = []
    for term in terms(data):
        for abbr in term.get("abbr", []):
            lines.append(f"*[{abbr}]: {term[lang]}: {term[lang + '_def']}")
    return "\n".join(lines) + "\n"


def page_path(lang: str) -> Path:
    return DOCS / lang / "glossary.md"


def abbreviations_path(lang: str) -> Path:
    return INCLUDES / f"abbreviations.{lang}.md"


_ID_ATTR = re.compile(r"""\bid=["']([^"']+)["']|\{[^}\n]*#([A-Za-z0-9_.:-]+)[^}\n]*\}""")


def anchor_problems(data: dict | None = None) -> list[str]:
    """``see`` links whose page or anchor does not exist in one of the languages."""
    data = data or load()
    problems = []
    for term in terms(data):
        page, _, anchor = term["see"].partition("#")
        for lang in LANGS:
            path = DOCS / lang / page
            if not path.is_file():
                problems.append(f"{term['id']}: see {term['see']}: no docs/{lang}/{page}")
                continue
            ids = {a or b for a, b in _ID_ATTR.findall(path.read_text(encoding="utf-8"))}
            if anchor and anchor not in ids:
                problems.append(f"{term['id']}: see {term['see']}: docs/{lang}/{page} has no id {anchor!r}")
    return problems


def variant_problems(name: str, text: str, data: dict | None = None) -> list[str]:
    """Japanese prose that uses a variant the glossary rules out."""
    data = data or load()
    rules = [(re.compile(a), term) for term in terms(data) for a in term.get("avoid", [])]
    problems = []
    for ln, line in prose_lines(text):
        for rx, term in rules:
            for m in rx.finditer(line):
                problems.append(
                    f"{name}:{ln}: {m.group(0)!r} -> use {term['ja']} ({term['en']}; docs/{{ja,en}}/glossary.md#{term['id']})"
                )
    return problems


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        INCLUDES.mkdir(exist_ok=True)
        for lang in LANGS:
            for path, text in ((page_path(lang), render(lang)), (abbreviations_path(lang), render_abbreviations(lang))):
                path.write_text(text, encoding="utf-8")
                print("wrote", path.relative_to(DOCS.parent))
    else:
        print(__doc__)
