"""One concept, one Japanese term: the glossary in docs/glossary.yml.

The pages docs/ja/glossary.md and docs/en/glossary.md are generated from it:

    python -m docs_tools.glossary --write

tests/test_glossary.py fails when a page is out of date, and when Japanese prose
(outside code, see docs_model.prose_lines) uses one of an entry's ``avoid``
patterns (Python regular expressions).
"""

from __future__ import annotations

import re
import sys

import yaml

from docs_tools.docs_model import DOCS, prose_lines

SOURCE = DOCS / "glossary.yml"
_PLAIN = re.compile(r"^[^\\()\[\]?*+|^$.{}]+$")

TEXT = {
    "ja": {
        "title": "# 用語集 {#glossary}",
        "intro": (
            "このサイトでは、一つの概念に一つの訳語だけを使います。たとえば「精度」は数値の細かさだけを指し、"
            "分類がどれだけ当たったかは「正解率」と書きます。右の列の表記は使いません(テストが日本語のページを調べます)。"
        ),
        "header": "| 用語 | 英語 | 意味 | 使わない表記 |",
    },
    "en": {
        "title": "# Glossary {#glossary}",
        "intro": (
            "Each concept on this site has one name in each language. The Japanese pages use exactly the "
            "Japanese term listed here, and never the variants in the last column (a test checks the "
            "Japanese pages). \"Precision\" always means how finely a format resolves numbers; how often a "
            "classifier is right is its accuracy."
        ),
        "header": "| Term | Japanese | Meaning | Japanese variants not used |",
    },
}


def load() -> dict:
    return yaml.safe_load(SOURCE.read_text(encoding="utf-8"))


def render(lang: str, data: dict | None = None) -> str:
    data = data or load()
    t = TEXT[lang]
    out = [t["title"], "", t["intro"], ""]
    for group in data["groups"]:
        out += [f"## {group[lang]} {{#{group['id']}}}", "", t["header"], "| --- | --- | --- | --- |"]
        for term in group["terms"]:
            variants = term.get("shown") or "、".join(a for a in term["avoid"] if _PLAIN.match(a)) or "—"
            first, second = (term["ja"], term["en"]) if lang == "ja" else (term["en"], term["ja"])
            out.append(f"| {first} | {second} | {term[lang + '_def']} | {variants} |")
        out.append("")
    return "\n".join(out)


def page_path(lang: str):
    return DOCS / lang / "glossary.md"


def variant_problems(name: str, text: str, data: dict | None = None) -> list[str]:
    """Japanese prose that uses a variant the glossary rules out."""
    data = data or load()
    rules = [(re.compile(a), term) for g in data["groups"] for term in g["terms"] for a in term["avoid"]]
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
        for lang in ("ja", "en"):
            page_path(lang).write_text(render(lang), encoding="utf-8")
            print("wrote", page_path(lang))
    else:
        print(__doc__)
