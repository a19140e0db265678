"""The glossary (docs/glossary.yml, see docs_tools/glossary.py): the reader's pages and the
abbreviations generated from it, links that land, and one Japanese term per concept."""

from __future__ import annotations

import re

import pytest

from docs_tools import glossary
from docs_tools.docs_model import LANGS, prose_sources

DATA = glossary.load()
# The glossary page itself lists the variants on purpose.
JA = [(name, text) for name, text in prose_sources("ja") if name != "docs/ja/glossary.md"]


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_page_and_abbreviations_are_generated_from_the_data(lang):
    stale = "differs from docs/glossary.yml; run `python -m docs_tools.glossary --write`"
    assert glossary.page_path(lang).read_text(encoding="utf-8") == glossary.render(lang, DATA), (
        f"docs/{lang}/glossary.md {stale}"
    )
    assert glossary.abbreviations_path(lang).read_text(encoding="utf-8") == glossary.render_abbreviations(lang, DATA), (
        f"docs/includes/abbreviations.{lang}.md {stale}"
    )


def test_glossary_entries_are_well_formed():
    ids = [t["id"] for t in glossary.terms(DATA)] + [g["id"] for g in DATA["groups"]]
    assert len(ids) == len(set(ids)), "duplicate ids (a group's heading and a term share the page: one id each)"
    abbrs = [a for t in glossary.terms(DATA) for a in t.get("abbr", [])]
    assert len(abbrs) == len(set(abbrs)), "an abbreviation listed under two terms"
    for t in glossary.terms(DATA):
        assert {"id", "en", "ja", "en_def", "ja_def", "see"} <= t.keys(), t
        assert not set(t) - {"id", "en", "ja", "en_def", "ja_def", "see", "abbr", "avoid", "shown"}, t
        for key in ("en_def", "ja_def"):
            assert "\n" not in t[key] and not t[key].endswith((".", "。")), f"{t['id']}: {key} is one line, no final stop"
        for a in t.get("avoid", []):
            re.compile(a)
            assert not re.search(a, t["ja"]), f"{t['id']}: the chosen term {t['ja']} matches its own variant {a!r}"


def test_every_term_links_to_a_section_that_exists():
    problems = glossary.anchor_problems(DATA)
    assert not problems, "\n".join(problems)


def test_anchor_check_catches_a_missing_anchor():
    bad = {"groups": [{"id": "g", "ja": "g", "en": "g", "terms": [
        {"id": "x", "en": "x", "ja": "x", "en_def": "x", "ja_def": "x", "see": "gpu/tf32.md#no-such-section"},
    ]}]}
    assert glossary.anchor_problems(bad) == [
        f"x: see gpu/tf32.md#no-such-section: docs/{lang}/gpu/tf32.md has no id 'no-such-section'" for lang in LANGS
    ]


def test_the_autocast_definition_names_the_three_groups_of_the_generated_op_table():
    """Issue 40: the definition once said autocast runs "the rest in float32". The op table that
    snippets/amp/autocast_op_table.py generates from the installed torch has three groups: ops cast
    down to the autocast dtype, ops cast up to float32 even from bfloat16, and ops whose output keeps
    its input's dtype (float32 in, float32 out; bfloat16 in, bfloat16 out). The definition names all three."""
    from docs_tools.docs_model import SNIPPETS

    rows = {}
    for line in (SNIPPETS / "amp/autocast_op_table.out").read_text(encoding="utf-8").splitlines()[4:]:
        *op, from_float32, from_bfloat16, _ = line.split()
        rows[" ".join(op)] = (from_float32, from_bfloat16)
    groups = {
        "down": [op for op, out in rows.items() if out == ("bfloat16", "bfloat16")],
        "float32": [op for op, out in rows.items() if out == ("float32", "float32")],
        "input dtype": [op for op, out in rows.items() if out == ("float32", "bfloat16")],
    }
    assert all(groups.values()) and sum(map(len, groups.values())) == len(rows), groups
    term = next(t for t in glossary.terms(DATA) if t["id"] == "autocast")
    for key, words in (("en_def", ("in float16/bfloat16", "in float32", "inputs' dtype")),
                       ("ja_def", ("float16/bfloat16 で", "float32 で", "入力の dtype のまま"))):
        missing = [w for w in words if w not in term[key]]
        assert not missing, f"autocast's {key} does not name {missing}: {term[key]}"
    assert "rest in float32" not in term["en_def"] and "残りを float32" not in term["ja_def"]


@pytest.mark.parametrize("name,text", JA, ids=[name for name, _ in JA])
def test_japanese_uses_one_term_per_concept(name, text):
    problems = glossary.variant_problems(name, text, DATA)
    assert not problems, "\n".join(problems)


# Code in the built HTML: <pre> and <code> elements (neither nests in itself), with the text of
# <script> and <style> taken out first. A regex over the files MkDocs wrote, because parsing every
# page of both languages into a tree took 36 s of each run; the scanner's own test is below.
OPAQUE = re.compile(r"<(script|style)\b[^>]*>.*?</\1>", re.S | re.I)
CODE = re.compile(r"<(pre|code)\b[^>]*>(.*?)</\1>", re.S | re.I)


def abbr_in_code(html: str) -> list[str]:
    """The <pre>/<code> elements of ``html`` that hold an <abbr>, as their first 80 characters."""
    return [m[0][:80] for m in CODE.finditer(OPAQUE.sub("", html)) if re.search(r"<abbr\b", m[2], re.I)]


def test_the_code_scanner_finds_abbr_in_code_only():
    assert abbr_in_code('<p><abbr title="x">TF32</abbr> <code>torch.<abbr title="x">TF32</abbr></code></p>')
    assert abbr_in_code('<pre class="a"><code><span>x = <abbr title="x">AMP</abbr></span></code></pre>')
    assert not abbr_in_code('<p><abbr title="x">AMP</abbr></p><pre><code>amp = 1</code></pre><code>TF32</code>')
    assert not abbr_in_code('<script>const s = "<code><abbr>x</abbr></code>";</script><p><code>x</code></p>')


@pytest.mark.site
def test_abbreviations_show_in_prose_and_never_in_code(built_site):
    """The abbreviations appended to every page become <abbr> in prose, never inside code
    (what the copy button copies) or in the search index's text."""
    import json

    from bs4 import BeautifulSoup

    for lang in LANGS:
        html = (built_site / lang / "gpu" / "tf32" / "index.html").read_text(encoding="utf-8")
        soup = BeautifulSoup(html, "html.parser")
        assert soup.select("article abbr[title]"), f"{lang}: no <abbr> on the TF32 page"
        assert not soup.select("code abbr, pre abbr") and not abbr_in_code(html)
        for page in (built_site / lang).rglob("*.html"):
            inside = abbr_in_code(page.read_text(encoding="utf-8"))
            assert not inside, f"{page.relative_to(built_site)}: <abbr> inside code: {inside[:3]}"
        index = json.loads((built_site / lang / "search" / "search_index.json").read_text(encoding="utf-8"))
        assert not any("*[TF32]" in doc["text"] for doc in index["docs"]), f"{lang}: abbreviation definitions indexed"
