"""A Japanese section whose English section changed since it was last revised fails here (docs_tools/translations.py)."""

from __future__ import annotations

from docs_tools import translations


def test_japanese_sections_are_revised_after_english_changes():
    problems = translations.stale()
    assert not problems, (
        "revise these Japanese sections against the English, then record them with "
        "`python -m docs_tools.translations --update docs/ja/<page>`:\n" + "\n".join(problems)
    )


def test_a_changed_english_sentence_is_reported():
    record = {rel: translations.current(rel) for rel in translations.page_files("en")}
    assert translations.stale(record) == []
    rel = "index.md"
    key = next(iter(record[rel]))
    record[rel][key] = "0000000000"
    assert translations.stale(record) == [
        f"docs/ja/{rel}#{key}: the English section changed since the Japanese was revised"
    ]
