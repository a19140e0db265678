"""Every inline ``python`` block of every page runs, and shown output is checked.

Blocks are read with pytest-codeblocks' own parser (so its markers work:
``<!--pytest.mark.cuda-->``, ``<!--pytest-codeblocks:cont-->``,
``<!--pytest-codeblocks:expected-output-->``, ``importorskip``). A block that is
exactly one ``--8<-- "snippets/x.py"`` include is run by test_snippets.py as a
script instead. The two languages carry identical code (test_parity.py), so an
identical block is run once and its id names the page, not the language.
"""

from __future__ import annotations

import sys

import pytest

from tests.support.doc_runner import run_block
from tests.support.docs_model import DOCS, INCLUDE, LANGS, codeblocks_extract, page_files
from tests.support.outputs import normalize_output


def _runnable_blocks(lang: str, rel: str):
    text = (DOCS / lang / rel).read_text(encoding="utf-8")
    blocks = []
    for block in codeblocks_extract(text):
        if block.syntax != "python":
            continue
        lines = [ln for ln in block.code.splitlines() if ln.strip()]
        if len(lines) == 1 and INCLUDE.match(lines[0]):
            continue
        blocks.append(block)
    return blocks


def _key(block):
    return (block.code, block.expected_output, tuple(block.marks), block.importorskip)


def _params():
    params = []
    pages = sorted({rel for lang in LANGS for rel in page_files(lang) if rel.endswith(".md")})
    for rel in pages:
        per_lang = {lang: _runnable_blocks(lang, rel) if (DOCS / lang / rel).exists() else [] for lang in LANGS}
        count = max(len(b) for b in per_lang.values())
        for i in range(count):
            variants: dict = {}
            for lang in LANGS:
                if i < len(per_lang[lang]):
                    variants.setdefault(_key(per_lang[lang][i]), []).append((lang, per_lang[lang][i]))
            for group in variants.values():
                lang, block = group[0]
                label = rel if len(variants) == 1 else f"{lang}/{rel}"
                marks = [eval(mark, {"pytest": pytest, "sys": sys}) for mark in block.marks]
                params.append(pytest.param(lang, rel, block, id=f"{label}:{block.lineno}", marks=marks))
    return params


@pytest.mark.parametrize("lang,rel,block", _params())
def test_doc_block(lang, rel, block, tmp_path, monkeypatch):
    if block.importorskip:
        pytest.importorskip(block.importorskip)
    monkeypatch.chdir(tmp_path)  # files a block writes land in a temporary folder
    out = run_block(block.code, f"docs/{lang}/{rel}", first_line=block.lineno + 1)
    if block.expected_output is not None:
        expected = normalize_output(block.expected_output, block.expected_output_ignore_whitespace)
        actual = normalize_output(out, block.expected_output_ignore_whitespace)
        assert actual == expected, (
            f"docs/{lang}/{rel}:{block.lineno}: the output shown on the page differs from the real output.\n"
            f"--- shown\n{expected}\n--- real\n{actual}"
        )
