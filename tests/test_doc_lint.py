"""Nothing on a page escapes the tests.

pytest-codeblocks silently skips ``py``, ``pycon``, titled fences and ``~~~``;
a ``text`` block could show output nobody checks; a snippet could be written
but never shown. Each of these fails here instead.
"""

from __future__ import annotations

import re

import pytest

from tests.docs_model import DOCS, LANGS, REPO, SNIPPETS, markdown_pages

# Fence info strings a page may use, and why each is safe.
ALLOWED_INFO = {
    "python": "run by test_doc_blocks.py (inline) or test_snippets.py (a --8<-- include)",
    "text": "output: an expected-output block (checked) or an include of a checked .out / generated file",
    "console": "a shell command for the reader to copy; never run by the tests (shown as such)",
    "toml": "configuration shown, not code",
    "yaml": "configuration shown, not code",
    "json": "data shown, not code",
    "dockerfile": "a Dockerfile; not built by the tests",
}
ALLOWED_MARKERS = re.compile(
    r"^(pytest\.mark\.cuda"
    r"|pytest\.mark\.skipif\(.*reason=.*\)"
    r"|pytest-codeblocks:(expected-output|expected-output-ignore-whitespace|cont|importorskip\(\w+\)))$"
)
GENERATED_OUTPUT_DIRS = ("snippets/", "benchmarks/results/")

PAGES = markdown_pages()


def _id(page):
    return f"{page.lang}/{page.rel}"


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_fences_are_all_tested(page):
    problems = []
    for f in page.fences:
        where = f"docs/{page.lang}/{page.rel}:{f.lineno}"
        if f.fence.startswith("~"):
            problems.append(f"{where}: '~~~' fences are skipped by pytest-codeblocks; use ```")
            continue
        if f.info not in ALLOWED_INFO:
            problems.append(
                f"{where}: fence info {f.info!r} is not one of {sorted(ALLOWED_INFO)} "
                "(py/pycon/titled fences are silently skipped; use ```python, and console for shell)"
            )
            continue
        for marker in f.markers:
            if not ALLOWED_MARKERS.match(marker):
                problems.append(f"{where}: marker <!--{marker}--> is not allowed (no plain skip/xfail: blocks must run)")
        include = f.include
        if f.info == "python" and include is not None:
            if not (include.startswith("snippets/") and include.endswith(".py")):
                problems.append(f"{where}: a python include must be a whole snippets/*.py file, got {include!r}")
            elif not (REPO / include).is_file():
                problems.append(f"{where}: included file {include} does not exist")
        if f.info == "python" and include is None and "--8<--" in f.body:
            problems.append(f"{where}: partial includes inside code are not run as shown; include a whole file")
        if f.info == "text":
            checked = "pytest-codeblocks:expected-output" in " ".join(f.markers)
            if include is None and not checked:
                # An expected-output block's marker sits *between* the code and this fence.
                before = page.text.splitlines()[: f.lineno - 1]
                last = next((ln.strip() for ln in reversed(before) if ln.strip()), "")
                checked = last.startswith("<!--pytest-codeblocks:expected-output")
            if include is not None:
                if not include.startswith(GENERATED_OUTPUT_DIRS) or not (REPO / include).is_file():
                    problems.append(f"{where}: text include {include!r} must be a checked output file that exists")
            elif not checked:
                problems.append(
                    f"{where}: a text block must be checked output "
                    "(<!--pytest-codeblocks:expected-output--> before it, or an include of a .out file)"
                )
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_headings_have_explicit_ids(page):
    missing = [f"docs/{page.lang}/{page.rel}: '{text}'" for level, hid, text in page.headings if hid is None]
    assert not missing, "headings need an explicit {#id} so anchors match across languages:\n" + "\n".join(missing)


def test_every_snippet_is_shown_with_its_output():
    includes_by_lang = {lang: set() for lang in LANGS}
    for page in PAGES:
        for item in page.structure:
            if item.startswith("include:"):
                includes_by_lang[page.lang].add(item.removeprefix("include:"))
        for f in page.fences:
            if f.include:
                includes_by_lang[page.lang].add(f.include)
    problems = []
    for path in sorted(SNIPPETS.rglob("*")):
        if path.suffix not in {".py", ".out"}:
            continue
        rel = str(path.relative_to(REPO))
        for lang in LANGS:
            if rel not in includes_by_lang[lang]:
                problems.append(f"{rel} is not shown on any docs/{lang} page")
        if path.suffix == ".out" and not path.with_suffix(".py").exists():
            problems.append(f"{rel} has no script next to it")
    # Where a page shows a script that has checked output, it shows the output too.
    for page in PAGES:
        shown = {f.include for f in page.fences if f.include}
        for inc in shown:
            out = inc[:-3] + ".out" if inc.endswith(".py") else None
            if out and (REPO / out).exists() and out not in shown:
                problems.append(f"docs/{page.lang}/{page.rel} shows {inc} but not its checked output {out}")
    assert not problems, "\n".join(problems)


def test_no_absolute_third_party_assets():
    """Pages must not pull images/scripts from other hosts (the site makes no third-party requests)."""
    pattern = re.compile(r"(!\[[^\]]*\]\(https?://|<(img|script|iframe|link)[^>]+(src|href)=\"https?://)")
    hits = [
        f"docs/{p.lang}/{p.rel}: {m.group(0)}" for p in PAGES for m in pattern.finditer(p.text)
    ]
    assert not hits, "\n".join(hits)


def test_docs_tree_has_only_the_two_languages():
    extra = sorted(p.name for p in DOCS.iterdir() if p.is_dir() and p.name not in {*LANGS, "overrides"})
    assert not extra, f"unexpected folders in docs/: {extra}"


@pytest.mark.parametrize("page", [p for p in PAGES if p.lang == "ja"], ids=_id)
def test_japanese_paragraphs_are_not_hard_wrapped(page):
    from tests.docs_model import wrapped_prose_lines

    hits = wrapped_prose_lines(page.text)
    lines = page.text.splitlines()
    assert not hits, (
        "a line break inside a Japanese paragraph renders as a visible space; "
        f"run `python -m tests.reflow_ja docs/ja/{page.rel}`:\n"
        + "\n".join(f"  line {i + 1}: {lines[i][:60]}" for i in hits)
    )
