"""One concept, one Japanese term (docs/glossary.yml, see docs_tools/glossary.py)."""

from __future__ import annotations

import re

import pytest

from docs_tools import glossary
from docs_tools.docs_model import prose_sources

DATA = glossary.load()
# The glossary page itself lists the variants on purpose.
JA = [(name, text) for name, text in prose_sources("ja") if name != "docs/ja/glossary.md"]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_glossary_page_is_generated_from_the_data(lang):
    assert glossary.page_path(lang).read_text(encoding="utf-8") == glossary.render(lang, DATA), (
        f"docs/{lang}/glossary.md differs from docs/glossary.yml; run `python -m docs_tools.glossary --write`"
    )


def test_glossary_entries_are_well_formed():
    ids = [t["id"] for g in DATA["groups"] for t in g["terms"]]
    assert len(ids) == len(set(ids)), "duplicate term ids"
    for g in DATA["groups"]:
        for t in g["terms"]:
            assert {"id", "en", "ja", "en_def", "ja_def", "avoid"} <= t.keys(), t
            for a in t["avoid"]:
                re.compile(a)
                assert not re.search(a, t["ja"]), f"{t['id']}: the chosen term {t['ja']} matches its own variant {a!r}"


@pytest.mark.parametrize("name,text", JA, ids=[name for name, _ in JA])
def test_japanese_uses_one_term_per_concept(name, text):
    problems = glossary.variant_problems(name, text, DATA)
    assert not problems, "\n".join(problems)
