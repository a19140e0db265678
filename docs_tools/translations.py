"""Which Japanese sections have not been revised since their English section changed.

docs/translations.json records, for every page and every section (heading id),
a short hash of the English section's prose the Japanese was last checked
against. Code fences are left out (the parity test already keeps the code
identical) and whitespace is normalised, so re-wrapping English lines or
changing code does not mark a translation stale.

    python -m docs_tools.translations                  # list stale sections
    python -m docs_tools.translations --update         # record the current English for every page
    python -m docs_tools.translations --update docs/ja/amp/autocast.md [...]   # for these pages only

Run --update for a page after you (or a reviewer) have brought its Japanese in
line with the English. tests/test_translations.py fails while a section is stale.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys

from docs_tools.docs_model import DOCS, HEADING, HEADING_ID, fence_lines, notebook_cells, page_files

RECORD = DOCS / "translations.json"


def _text(rel: str) -> str:
    path = DOCS / "en" / rel
    if rel.endswith(".ipynb"):
        return "\n\n".join("".join(c["source"]) for c in notebook_cells(path) if c["cell_type"] == "markdown")
    return path.read_text(encoding="utf-8")


def sections(text: str) -> dict[str, str]:
    """{heading id: normalised prose of that section} (text before the first heading: key "_top")."""
    out: dict[str, list[str]] = {"_top": []}
    key, count = "_top", 0
    inside = fence_lines(text)
    for i, line in enumerate(text.splitlines()):
        if i in inside:
            continue
        h = HEADING.match(line)
        if h:
            count += 1
            hid = HEADING_ID.search(h.group("text"))
            key = hid.group("id") if hid else f"heading-{count}"
            out.setdefault(key, [])
        out[key].append(line)
    return {k: " ".join(" ".join(v).split()) for k, v in out.items() if " ".join(v).strip()}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def current(rel: str) -> dict[str, str]:
    return {k: digest(v) for k, v in sections(_text(rel)).items()}


def load() -> dict[str, dict[str, str]]:
    return json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}


def stale(record: dict | None = None) -> list[str]:
    """'docs/ja/<page>#<id>: why' for every Japanese section whose English changed since it was recorded."""
    record = load() if record is None else record
    out = []
    for rel in page_files("en"):
        if not (DOCS / "ja" / rel).exists():
            continue  # the parity test reports missing pages
        seen = record.get(rel, {})
        for key, h in current(rel).items():
            if key not in seen:
                out.append(f"docs/ja/{rel}#{key}: new English section, not yet recorded as translated")
            elif seen[key] != h:
                out.append(f"docs/ja/{rel}#{key}: the English section changed since the Japanese was revised")
    return out


def update(rels: list[str] | None = None) -> None:
    record = load()
    pages = page_files("en")
    if rels:
        wanted = [re.sub(r"^docs/(ja|en)/", "", r) for r in rels]
        unknown = sorted(set(wanted) - set(pages))
        if unknown:
            raise SystemExit(f"not a page: {', '.join(unknown)}")
        pages = wanted
    for rel in pages:
        record[rel] = current(rel)
    existing = set(page_files("en"))
    record = {rel: record[rel] for rel in sorted(record) if rel in existing}
    RECORD.write_text(json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {len(pages)} page(s) in {RECORD.relative_to(DOCS.parent)}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--update"]:
        update(args[1:] or None)
    else:
        problems = stale()
        print("\n".join(problems) or "every Japanese section is up to date with its English section")
        sys.exit(1 if problems else 0)
