"""The core guide chapters: linked from the guide's index, each ending with its mistakes."""

from __future__ import annotations

import re

import pytest

from docs_tools.docs_model import DOCS, LANGS, page

CHAPTERS = sorted(
    p.name for p in (DOCS / "en" / "guide").glob("*.md") if p.name != "index.md"
)


@pytest.mark.parametrize("lang", LANGS)
def test_index_links_every_chapter_and_the_applied_part(lang):
    text = page(lang, "guide/index.md").text
    linked = set(re.findall(r"\]\(([a-z-]+\.md)\)", text))
    assert set(CHAPTERS) <= linked, f"guide/index.md ({lang}) does not link {sorted(set(CHAPTERS) - linked)}"
    assert "](applied/index.md)" in text
    assert any(hid == "applied" for _, hid, _ in page(lang, "guide/index.md").headings)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_ends_with_common_mistakes(lang, chapter):
    headings = page(lang, f"guide/{chapter}").headings
    level2 = [hid for level, hid, _ in headings if level == 2]
    assert level2 and level2[-1] == "mistakes", f"docs/{lang}/guide/{chapter} must end with '## ... {{#mistakes}}'"
    text = page(lang, f"guide/{chapter}").text
    entries = re.findall(r"^:   ", text.split("{#mistakes}")[1], flags=re.M)
    assert len(entries) >= 3, f"docs/{lang}/guide/{chapter}: the mistakes section should list the common mistakes"
