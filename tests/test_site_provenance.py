"""Provenance on the built site: the "tested with" line, llms.txt, the changelog.

The line under every page comes from docs/tested-with.json, which only
``pytest --record-tested-with`` writes (tests/support/tested_with.py), after a passing
run of the pages' code. Its CPU record must name the torch constraints.txt pins, and the record
of this machine's kind (CPU, or CUDA where torch sees a GPU) the torch this environment has.
"""

from __future__ import annotations

import json
import re

import pytest

from docs_tools.docs_model import REPO
from tests.support.tested_with import STAMP, installed_torch, machine_kind, pinned_torch


LINE = re.compile(r'<p class="md-tested-with"><small>(?P<text>[^<]+)</small></p>')
ENTRY = re.compile(r"^- \[(?P<title>[^\]]+)\]\((?P<url>[^)]+)\)(?P<desc>: .+)?$", re.M)


def _stamp() -> dict:
    stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    assert set(stamp) <= {"cpu", "cuda"} and "cpu" in stamp, stamp
    for kind, record in stamp.items():
        assert set(record) == {"torch", "device", "date"}, record
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", record["date"]), record
    return stamp


def test_cpu_record_names_the_pinned_torch():
    """On every machine: the CPU record is about the torch every CPU run installs (constraints.txt)."""
    stamp = _stamp()
    assert stamp["cpu"]["torch"] == pinned_torch(), (
        f"docs/tested-with.json's CPU record names torch {stamp['cpu']['torch']}, constraints.txt pins "
        f"{pinned_torch()}: run `bash .ci/test --record-tested-with` with the pinned torch and commit the file"
    )


def test_tested_with_record_names_this_torch():
    """The record of this machine's kind names this environment's torch: a CUDA machine (its own torch,
    2.11 on the one lent so far) is compared with the CUDA record, a CPU machine with the CPU record."""
    stamp, kind, here = _stamp(), machine_kind(), installed_torch()
    if kind == "cuda":
        if "cuda" not in stamp:
            pytest.skip("docs/tested-with.json has no CUDA record yet: `bash .ci/gpu` writes it on a GPU machine "
                        "once the CUDA page scripts pass there (--record-tested-with)")
        record = "bash .ci/gpu (its --record-tested-with step)"
    else:
        if here != pinned_torch():
            pytest.skip(f"this CPU environment has torch {here}, not the pinned {pinned_torch()} the CPU record is "
                        "about (constraints.txt); test_cpu_record_names_the_pinned_torch checks that record")
        record = "bash .ci/test --record-tested-with"
    assert stamp[kind]["torch"] == here, (
        f"docs/tested-with.json's {kind} record names torch {stamp[kind]['torch']}, this environment has {here}: "
        f"run {record} here and commit the file"
    )


@pytest.mark.site
def test_every_page_says_what_it_was_tested_with(built_site):
    stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    missing = []
    for lang in ("ja", "en"):
        for page in sorted((built_site / lang).glob("**/index.html")):
            m = LINE.search(page.read_text(encoding="utf-8"))
            if not m or f"torch {stamp['cpu']['torch']}" not in m["text"] or stamp["cpu"]["date"] not in m["text"]:
                missing.append(str(page.relative_to(built_site)))
    assert not missing, f"pages without the tested-with line from {STAMP.name}: {missing}"


@pytest.mark.site
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_llms_txt_lists_every_page(built_site, lang):
    text = (built_site / lang / "llms.txt").read_text(encoding="utf-8")
    assert text.startswith("# ") and "\n> " in text
    entries = ENTRY.findall(text)
    urls = {url for _, url, _ in entries}
    pages = {
        "./" if p.parent == built_site / lang else p.parent.relative_to(built_site / lang).as_posix() + "/"
        for p in (built_site / lang).glob("**/index.html")
    }
    assert urls == pages, f"only in llms.txt: {urls - pages}; not in llms.txt: {pages - urls}"
    assert all(desc for _, _, desc in entries), [t for t, _, d in entries if not d]
    root = (built_site / "llms.txt").read_text(encoding="utf-8")
    assert f"({lang}/llms.txt)" in root


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_changelog_is_in_the_nav(lang):
    config = (REPO / ("mkdocs.yml" if lang == "ja" else "mkdocs.en.yml")).read_text(encoding="utf-8")
    assert re.search(r"^  - [^:]+: changelog\.md$", config, re.M)
    assert (REPO / "docs" / lang / "changelog.md").is_file()
