"""The small labelled corpus that the NLP chapter trains on (snippets/guide/applied/data/topics.tsv)."""

from __future__ import annotations

from collections import Counter

from docs_tools.docs_model import REPO

CORPUS = REPO / "snippets" / "guide" / "applied" / "data" / "topics.tsv"


def _rows():
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#"), "the first line describes the file"
    return [line.split("\t") for line in lines[1:]]


def test_corpus_format():
    rows = _rows()
    assert all(len(r) == 2 for r in rows), "each line is label<TAB>text"
    assert all(text == text.strip() and text.isascii() and text for _, text in rows)


def test_corpus_is_balanced_and_has_no_duplicates():
    rows = _rows()
    assert Counter(label for label, _ in rows) == {"food": 120, "sports": 120, "weather": 120}
    texts = [text for _, text in rows]
    assert len(set(texts)) == len(texts), "duplicate sentences would leak between train and test"
