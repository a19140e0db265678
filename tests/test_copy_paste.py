"""Every page works when a reader copies its blocks, in order, into one Python session.

From the built site (both languages, the ``built_site`` fixture), each page's Python blocks
are taken exactly as Material's copy button gives them (tests/support/copy_paste.py) and run in
order in ONE fresh interpreter per page: ``__main__`` without ``__file__``, warnings as
errors (tests/warning_policy.py), the page's own temporary working folder. A notebook page
runs its code cells the same way. Three kinds of block are treated as the page tells the
reader to treat them:

* a block titled with a file name (```` ```python title="ddp_spawn.py" ````) is saved under
  that name and run as ``python ddp_spawn.py``, as the line above it tells the reader;
* a GPU-only block (in a CUDA tab, ``# requires: cuda``) is skipped without a GPU;
* a block that needs an optional package (named in an admonition above it) is skipped
  when that package is not installed.

Each block must not raise, must not write to stderr, and must print the output shown right
under it on the page (an included ``.out`` or an expected-output block), when pasted after
all the blocks above it. A failure names the page, the block number and the error.
The two languages carry the same code (test_parity.py): when their block sequences are
identical the page runs once, and counts for both.
"""

from __future__ import annotations

import pytest

from tests.support.copy_paste import page_data_files, page_plan, plan_key, problems, run_pasted
from tests.support.docs_model import DOCS, LANGS, page_files
from tests.support.snippets import snippet_env


def _pages():
    pages = []
    for rel in sorted({rel for lang in LANGS for rel in page_files(lang)}):
        if rel.endswith(".ipynb") or any(
            "```python" in (DOCS / lang / rel).read_text(encoding="utf-8")
            for lang in LANGS
            if (DOCS / lang / rel).exists()
        ):
            pages.append(rel)
    return pages


@pytest.mark.parametrize("rel", _pages())
def test_page_pastes_cleanly(rel, built_site, tmp_path):
    plans = {lang: page_plan(built_site, lang, rel) for lang in LANGS}
    files = {lang: page_data_files(built_site, lang, rel) for lang in LANGS}
    runs = {}
    for lang, blocks in plans.items():
        runs.setdefault(plan_key(blocks, files[lang]), []).append(lang)
    found = []
    for langs in runs.values():
        blocks = plans[langs[0]]
        workdir = tmp_path / "-".join(langs)
        workdir.mkdir()
        timeout = 120 + sum(b.timeout for b in blocks if b.kind == "file") + 60 * len(blocks)
        outcome = run_pasted(blocks, workdir, snippet_env(), timeout, files[langs[0]])
        found += problems(" and ".join(f"docs/{lang}/{rel}" for lang in langs), blocks, outcome)
    assert not found, "\n\n".join(found)


def _downloads(built_site, lang, rel):
    from tests.support.copy_paste import _soup, page_html

    soup = _soup(page_html(built_site, lang, rel))
    page_dir = page_html(built_site, lang, rel).parent
    return [(a["href"], (page_dir / a["href"]).resolve()) for a in soup.select("article a.snippet-download, article a.notebook-download")]


@pytest.mark.parametrize("lang", LANGS)
def test_every_snippet_and_notebook_can_be_downloaded(built_site, lang):
    """Under each included snippet a link to its .py; on each notebook page a link to its .ipynb."""
    from tests.support.docs_model import REPO, page

    found = []
    for rel in page_files(lang):
        links = _downloads(built_site, lang, rel)
        if rel.endswith(".ipynb"):
            expected = [(DOCS / lang / rel).read_bytes()]
        else:
            fences = page(lang, rel).fences
            expected = [(REPO / f.include).read_bytes() for f in fences
                        if f.include and f.include.endswith(".py") and f.info.startswith("python")]
        served = [target.read_bytes() if target.is_file() else f"missing: {href}".encode() for href, target in links]
        if served != expected:
            found.append(f"docs/{lang}/{rel}: {len(expected)} files to offer, links give "
                         f"{[href for href, _ in links]}")
    assert not found, "\n".join(found)
