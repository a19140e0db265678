"""Other torch versions as data: what the pages' CPU scripts print with them, and where the pages say so.

``recorded/torch/<version>/`` holds what every CPU script printed with another torch
(``bash .ci/record-torch-versions``, docs_tools/records.py). ``docs/data/torch_versions.toml`` lists,
per version, the scripts whose recorded output the page's shown output does not admit (under the
script's ``[[tolerance]]`` rules as they apply on that version: :func:`docs_tools.snippets.tolerance_rules`),
each with the text of that version's output that the pages quote, and the facts read in that
version's installed sources (``sources.toml`` of the record). These tests run nothing:

* the data file lists exactly the scripts that differ (a new difference, or one that went away,
  fails until the file says so), and each quote is in what that version printed;
* every page that shows such a script, in both languages, names the version and quotes it;
* each source fact is in the excerpt the command read from that version's installed file, and the
  pages it names quote it;
* the install page's version table has a row per recorded version that gives the record's counts
  and links each page whose output differs.

The digests of the records are checked by tests/test_cpu_records.py.
"""

from __future__ import annotations

import functools
import re
import tomllib

import pytest

from docs_tools import records
from docs_tools.docs_model import REPO, LANGS, markdown_pages, page
from docs_tools.outputs import compare_outputs, normalize_output
from docs_tools.snippets import snippet_meta, tolerance_rules

DATA_FILE = REPO / "docs" / "data" / "torch_versions.toml"
DATA = tomllib.loads(DATA_FILE.read_text(encoding="utf-8"))
VERSIONS = {v["torch"]: v for v in DATA.get("version", [])}
TORCH_RECORDS = {r.name: r for r in records.all_records("torch")}
INSTALL_PAGE = "guide/install.md"


def _flat(text: str) -> str:
    """Whitespace collapsed and blockquote markers dropped: an English page wraps its lines, a quote may
    run across two (or across the lines of a ``>`` quotation)."""
    return " ".join(re.sub(r"(?m)^[ \t]*>[ \t]?", "", text).split())


def _release(version: str) -> str:
    return ".".join(version.split(".")[:2])


@functools.cache
def _pages_showing(key: str) -> tuple:
    include = f"snippets/{key}.py"
    return tuple(p for p in markdown_pages() if any(f.include == include for f in p.fences))


def _stderr_allowed_now(rec, script) -> bool:
    """A script that exited 0 and whose only stderr (kept in ``<name>.err``: what its sidecar did not allow
    when it was recorded) is allowed by its sidecar now: a log line of PyPI's CUDA build on a machine
    without a GPU, allowed with its reason, needs no new run to count as clean."""
    key = records.key_of(script)
    err = rec.output_path(key).with_suffix(".err")
    if rec.entries[key].status != "wrote to stderr" or not err.is_file():
        return False
    meta = snippet_meta(script)
    return all(meta.stderr_allowed(line) for line in err.read_text(encoding="utf-8").splitlines())


@functools.cache
def differences(version: str) -> tuple[dict[str, str], list[str], int]:
    """(script key -> why it is not admitted, the keys not compared (stale), how many compared) for one record."""
    rec = TORCH_RECORDS[version]
    environment = {"torch": rec.meta.get("torch", version), "device": None}
    differ, not_compared, compared = {}, [], 0
    for script in records.cpu_scripts():
        key = records.key_of(script)
        state = rec.state(script)
        if state != "current":
            not_compared.append(f"{key} ({state})")
            continue
        compared += 1
        entry = rec.entries[key]
        if entry.status != "ok" and not _stderr_allowed_now(rec, script):
            differ[key] = f"did not run cleanly ({entry.status}; {key}.err)"
            continue
        shown = script.with_suffix(".out").read_text(encoding="utf-8")
        problem = compare_outputs(shown, rec.output(key), tolerance_rules(snippet_meta(script), environment))
        if problem:
            differ[key] = problem
    return differ, not_compared, compared


def test_every_recorded_version_is_in_the_data_file():
    assert TORCH_RECORDS, "no recorded/torch/<version>/: run `bash .ci/record-torch-versions`"
    assert set(VERSIONS) == set(TORCH_RECORDS), (
        f"{DATA_FILE.relative_to(REPO)} lists {sorted(VERSIONS)}, recorded/torch/ has {sorted(TORCH_RECORDS)}"
    )
    for name, rec in TORCH_RECORDS.items():
        assert rec.meta.get("torch", "").split("+")[0] == name, f"{rec.label}: its torch is {rec.meta.get('torch')!r}"
        assert rec.meta.get("machine") and rec.meta.get("python"), f"{rec.label}: the record must say its machine and Python"


@pytest.mark.parametrize("version", sorted(TORCH_RECORDS))
def test_the_data_file_lists_exactly_the_scripts_that_differ(version):
    """A script whose shown output does not admit that version's output is listed; a listed one differs."""
    differ, not_compared, compared = differences(version)
    listed = {d["script"]: d for d in VERSIONS.get(version, {}).get("differs", [])}
    stale = {s.split(" ")[0] for s in not_compared}
    unlisted = {k: v for k, v in differ.items() if k not in listed}
    gone = sorted(k for k in listed if k not in differ and k not in stale)
    assert not unlisted, (
        f"with torch {version} these scripts print what their page does not show; list each in "
        f"{DATA_FILE.relative_to(REPO)} with the text its pages quote, and say it on the pages:\n"
        + "\n".join(f"  {k}: {v}" for k, v in sorted(unlisted.items()))
    )
    assert not gone, (
        f"{DATA_FILE.relative_to(REPO)} lists differences with torch {version} that the record no longer shows: {gone}"
    )
    assert compared, f"recorded/torch/{version}: nothing current to compare ({not_compared})"
    if not_compared:
        print(f"torch {version}: not compared (record again with `bash .ci/record-torch-versions {version} -- --stale`): "
              + ", ".join(not_compared))


def _difference_params():
    return [pytest.param(v, d, id=f"{v}-{d['script']}") for v, data in sorted(VERSIONS.items())
            for d in data.get("differs", [])]


@pytest.mark.parametrize(("version", "difference"), _difference_params())
def test_each_difference_is_quoted_from_the_record_on_its_pages(version, difference):
    """Each quote is what differs: in what that version printed and not in the shown output (a new text), or
    the other way round (a line that version no longer prints); every page that shows the script, in both
    languages, names the version and quotes it."""
    key = difference["script"]
    assert set(difference) <= {"script", "quote", "what"}, f"{key}: unknown keys {sorted(set(difference) - {'script', 'quote', 'what'})}"
    assert difference.get("quote") and difference.get("what"), f"{version} {key}: give 'quote' (a list) and 'what'"
    rec = TORCH_RECORDS[version]
    assert key in rec.entries, f"{key} is not in recorded/torch/{version}"
    printed = normalize_output(rec.output(key))
    err = rec.output_path(key).with_suffix(".err")
    if err.is_file():
        printed += "\n" + err.read_text(encoding="utf-8")
    shown = (records.SNIPPETS / f"{key}.out").read_text(encoding="utf-8")
    pages = _pages_showing(key)
    assert {p.lang for p in pages} == set(LANGS), f"{key}: shown on {[(p.lang, p.rel) for p in pages]}"
    for quote in difference["quote"]:
        # what only that version prints, or what the page shows and that version no longer prints
        assert (_flat(quote) in _flat(printed)) != (_flat(quote) in _flat(shown)), (
            f"{key}: {quote!r} must be in what torch {version} printed or in the shown output, not in both or neither"
        )
        for p in pages:
            assert _flat(quote) in _flat(p.text), (
                f"docs/{p.lang}/{p.rel} shows {key}.out but does not quote what torch {version} prints there: {quote!r}"
            )
    for p in pages:
        assert _release(version) in p.text, f"docs/{p.lang}/{p.rel}: the note on {key} does not name torch {_release(version)}"


def _source_params():
    return [pytest.param(v, s, id=f"{v}-{s['file'].rsplit('/', 1)[-1]}-{n}") for v, data in sorted(VERSIONS.items())
            for n, s in enumerate(data.get("source", []))]


@functools.cache
def _excerpts(version: str) -> dict[str, str]:
    path = TORCH_RECORDS[version].folder / "sources.toml"
    assert path.is_file(), f"{path.relative_to(REPO)} is missing: `bash .ci/record-torch-versions {version}` writes it"
    found: dict[str, str] = {}
    for e in tomllib.loads(path.read_text(encoding="utf-8"))["excerpt"]:
        found[e["file"]] = found.get(e["file"], "") + "\n" + e["text"]
    return found


@pytest.mark.parametrize(("version", "fact"), _source_params())
def test_each_source_fact_is_in_that_versions_source_and_on_its_pages(version, fact):
    """A fact read in the installed sources: the quote is in the excerpt the command copied, and the pages quote it."""
    assert set(fact) <= {"file", "find", "lines", "quote", "pages", "what"}, sorted(fact)
    excerpt = _excerpts(version).get(fact["file"])
    assert excerpt is not None, f"recorded/torch/{version}/sources.toml has no excerpt of {fact['file']}"
    for quote in fact["quote"]:
        assert _flat(quote) in _flat(excerpt), f"{fact['file']} (torch {version}) does not say {quote!r}"
        for rel in fact["pages"]:
            for lang in LANGS:
                text = page(lang, rel).text
                assert _flat(quote) in _flat(text), f"docs/{lang}/{rel} does not quote {fact['file']} of torch {version}: {quote!r}"
                assert _release(version) in text, f"docs/{lang}/{rel} does not name torch {_release(version)}"


def _table_row(text: str, version: str) -> str | None:
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        if cells and re.match(rf"^\**{re.escape(version)}\b", cells[0]):
            return line
    return None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("version", sorted(TORCH_RECORDS))
def test_the_install_pages_version_table_gives_the_record(version, lang):
    """The row of the version (first cell starts with it) says how many scripts ran, how many print what the
    pages show (the record's entries less the listed differences), and links each page that differs."""
    text = page(lang, INSTALL_PAGE).text
    row = _table_row(text, version)
    assert row, f"docs/{lang}/{INSTALL_PAGE}: no row of the version table starts with {version}"
    rec = TORCH_RECORDS[version]
    listed = [d["script"] for d in VERSIONS[version].get("differs", [])]
    ran = len(rec.entries)
    same = ran - len(listed)
    numbers = re.findall(r"\d+", re.sub(r"\d+\.\d+(\.\d+)?", " ", row))
    assert str(ran) in numbers and str(same) in numbers, (
        f"docs/{lang}/{INSTALL_PAGE}: the {version} row must say that {same} of the {ran} recorded scripts print "
        f"what the pages show (recorded/torch/{version}, {DATA_FILE.name})"
    )
    for key in listed:
        for p in _pages_showing(key):
            if p.lang != lang:
                continue
            link = "../" + p.rel if not p.rel.startswith("guide/") else p.rel.removeprefix("guide/")
            assert f"]({link}" in row, f"docs/{lang}/{INSTALL_PAGE}: the {version} row does not link {link} ({key} differs)"
    date = max(e.date for e in rec.entries.values())
    assert date in row, f"docs/{lang}/{INSTALL_PAGE}: the {version} row does not give the record's date {date}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("version", sorted(TORCH_RECORDS))
def test_the_install_page_names_the_build_that_was_recorded(version, lang):
    """The build PyPI gave (its ``torch.__version__``, from the record's sources.toml) is named on the install page."""
    path = TORCH_RECORDS[version].folder / "sources.toml"
    assert path.is_file(), f"{path.relative_to(REPO)} is missing: `bash .ci/record-torch-versions {version}` writes it"
    build = tomllib.loads(path.read_text(encoding="utf-8")).get("build", {})
    assert build.get("torch", "").startswith(version), f"{path.relative_to(REPO)}: [build] torch is {build.get('torch')!r}"
    text = page(lang, INSTALL_PAGE).text
    assert build["torch"] in text, f"docs/{lang}/{INSTALL_PAGE} does not name the build recorded for {version}: {build['torch']}"
    if version.startswith("2.15.") and build.get("arch_list"):
        assert build["arch_list"] in text, f"docs/{lang}/{INSTALL_PAGE}: {version}'s get_arch_list() is {build['arch_list']!r}"
