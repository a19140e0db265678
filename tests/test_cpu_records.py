"""Every output a page shows, with its rules, admits what every CPU class on record printed.

``recorded/cpu/<class>/`` holds what each script printed on each kind of CPU the project has run on
(docs_tools/records.py): an Intel Xeon with AMX and AVX512-FP16, an AMD EPYC with AVX-512, AVX2-only
kernels. These tests run nothing: they compare each page's shown output (``snippets/**/*.out``) with
each class's recorded output under the snippet's ``[[tolerance]]`` rules, exactly as the copy-paste
test compares a real run. So a shown output that only one class prints fails on every machine, not
only when CI next lands on another CPU.

They also keep the records and the rules honest:

* a recorded output edited by hand no longer matches the digest recorded with it;
* a bound's ``spread`` (the largest difference observed) covers every class's recorded deviation,
  and the bound allows no more than twice that spread plus one unit in the last printed place;
* where a whole line depends on the class (``varies = "cpu"``), both languages' pages quote what
  each class prints on that line;
* a record of an older version of a script (stale) is not compared: the test says which, and the
  command that records it again on that class.
"""

from __future__ import annotations

import functools
import re
import tomllib

import pytest

from docs_tools import records
from docs_tools.docs_model import REPO, markdown_pages
from docs_tools.outputs import Rule, bound_excess, compare_outputs, deviations, normalize_output
from docs_tools.snippets import snippet_meta

CPU_RECORDS = records.all_records("cpu")
# Stale or missing class records waiting for a machine of their class, each with its reason.
AWAITING = tomllib.loads((records.RECORDS / "awaiting.toml").read_text(encoding="utf-8"))
# What a bound's why must name: the classes, machines or versions whose outputs it admits.
CLASS_NAMED = re.compile(r"AMX|AVX-?512|AVX2|EPYC|Xeon|torch 2\.\d+|H100|H200|GPU")
SCRIPTS = records.cpu_scripts()


def _id(path):
    return records.key_of(path)


def test_the_three_classes_are_on_record():
    """The classes the README names: AMX (Intel Xeon), AVX-512 (AMD EPYC), AVX2-only."""
    assert {r.name for r in CPU_RECORDS} >= {"amx", "avx512", "avx2"}, [r.label for r in CPU_RECORDS]
    for rec in CPU_RECORDS:
        assert rec.meta.get("machine") and rec.meta.get("torch") and rec.meta.get("description"), (
            f"{rec.folder}: the record must say its machine, torch and what the class is")


@pytest.mark.parametrize("rec", records.all_records(), ids=lambda r: r.label)
def test_recorded_outputs_are_what_was_recorded(rec):
    """Each recorded output still has the digest written when it was recorded (no hand edits), and
    every recorded file belongs to an entry."""
    for key, entry in rec.entries.items():
        path = rec.output_path(key)
        assert path.is_file(), f"{rec.label}: {key} has an entry but no {path.relative_to(REPO)}"
        assert records.digest(path.read_text(encoding="utf-8")) == entry.output, (
            f"{path.relative_to(REPO)} differs from what was recorded (its digest in {rec.folder.name}/record.toml): "
            "record it again (python -m docs_tools.records record), never edit it by hand"
        )
    strays = [p.relative_to(rec.folder).with_suffix("").as_posix() for p in rec.folder.rglob("*.out")]
    assert set(strays) <= set(rec.entries), f"{rec.label}: outputs without an entry: {sorted(set(strays) - set(rec.entries))}"
    gone = [k for k in rec.entries if not (records.SNIPPETS / f"{k}.py").is_file()]
    assert not gone, f"{rec.label}: records of scripts that no longer exist (delete them): {gone}"


@pytest.mark.parametrize("script", SCRIPTS, ids=_id)
def test_the_shown_output_admits_every_class(script):
    """The output under the script on the page, with its rules, admits every current class record."""
    key = records.key_of(script)
    shown = script.with_suffix(".out").read_text(encoding="utf-8")
    rules = list(snippet_meta(script).tolerance)
    # varies = "gpu"/"torch" rules are about GPU or version lines: on a CPU record of the pinned torch they do not apply
    rules = [r for r in rules if r.varies not in ("gpu", "torch")]
    compared, not_compared, problems = [], [], []
    for rec in CPU_RECORDS:
        state = rec.state(script)
        if state != "current":
            not_compared.append(f"{rec.label} ({state})")
            if key not in AWAITING.get(rec.name, {}):
                problems.append(
                    f"{rec.label}: the record of {key} is {state}, so this class's output is not compared: record it "
                    f"on a {rec.name} machine (python -m docs_tools.records record --stale), or list it in "
                    "recorded/awaiting.toml with the reason it cannot be recorded yet"
                )
            continue
        entry = rec.entries[key]
        if entry.status != "ok":
            problems.append(f"{rec.label}: the script did not run cleanly there ({entry.status}; see {key}.err)")
            continue
        problem = compare_outputs(shown, rec.output(key), rules)
        compared.append(rec.label)
        if problem:
            problems.append(f"{rec.label} ({rec.meta.get('machine', '?')}): {problem}\n--- recorded there\n"
                            f"{normalize_output(rec.output(key))}")
    assert not problems, (
        f"{script.relative_to(REPO)}: the output shown on the page ({key}.out) would fail on another CPU class:\n"
        + "\n".join(problems)
        + "\n(show what every class agrees on, or a [[tolerance]] rule whose why names the classes; "
        "see docs_tools/outputs.py)"
    )
    if not compared:
        pytest.skip(f"no current record of {key} to compare: {', '.join(not_compared)}; "
                    "run `python -m docs_tools.records record --stale` on each such class")
    if not_compared:
        # Compared where current; the rest is named so that it is recorded again on its class.
        print(f"{key}: not compared with {', '.join(not_compared)}")


def _bounded_rules():
    found = []
    for script in sorted(records.SNIPPETS.rglob("*.py")):
        meta = snippet_meta(script)
        for n, rule in enumerate(meta.tolerance):
            if rule.varies is None:
                found.append(pytest.param(script, rule, id=f"{_id(script)}#{n + 1}"))
    return found


@pytest.mark.parametrize(("script", "rule"), _bounded_rules())
def test_a_bound_is_no_wider_than_its_observed_spread(script, rule: Rule):
    """A bound states its spread (``spread``, the largest |printed - shown| observed); the bound may
    not exceed twice that spread plus one unit in the last printed place, and every current class
    record must lie within the spread (else the spread understates what was seen)."""
    assert rule.spread is not None, f"{script.relative_to(REPO)}: rule {rule.line!r} states no spread"
    assert CLASS_NAMED.search(rule.why), (
        f"{script.relative_to(REPO)}: rule {rule.line!r}: its why must name the CPU classes, GPUs or torch "
        f"versions whose outputs it admits (matching {CLASS_NAMED.pattern!r}): {rule.why!r}"
    )
    shown = script.with_suffix(".out").read_text(encoding="utf-8")
    excess = bound_excess(shown, rule)
    assert not excess, (
        f"{script.relative_to(REPO)}: rule {rule.line!r} allows more than its spread justifies:\n  " + "\n  ".join(excess)
    )
    key = records.key_of(script)
    seen = {}
    for rec in CPU_RECORDS:
        if rec.state(script) == "current":
            seen[rec.label] = deviations(shown, rec.output(key), [rule]).get(rule, 0.0)
    beyond = {label: d for label, d in seen.items() if d > rule.spread * (1 + 1e-9) + 1e-12}
    assert not beyond, (
        f"{script.relative_to(REPO)}: rule {rule.line!r} states spread {rule.spread:g} but the records differ by more: "
        f"{beyond} (set spread to what was observed, and say so in 'why')"
    )


@functools.cache
def _pages_showing(key: str) -> list:
    include = f"snippets/{key}.py"
    return [p for p in markdown_pages() if any(f.include == include for f in p.fences)]


def _cpu_rules():
    return [pytest.param(s, r, id=_id(s)) for s in SCRIPTS for r in snippet_meta(s).tolerance if r.varies == "cpu"]


@pytest.mark.parametrize(("script", "rule"), _cpu_rules())
def test_a_line_that_depends_on_the_cpu_is_quoted_for_each_class(script, rule: Rule):
    """``varies = "cpu"``: the page shows one class's line; both languages quote what every class prints."""
    key = records.key_of(script)
    printed = set()
    for rec in CPU_RECORDS:
        if rec.state(script) != "current":
            continue
        for line in normalize_output(rec.output(key)).splitlines():
            if rule.matches(line):
                printed.add(line.strip())
    assert len(printed) >= 1, f"{key}: no record prints a line matching {rule.line!r}"
    pages = _pages_showing(key)
    assert pages, f"{key}: no page includes the script"
    for page in pages:
        text = " ".join(page.text.split())  # a quoted message may wrap across lines
        for line in printed:
            message = re.sub(r"^\w+Error: ", "", line)
            assert message in text, (
                f"docs/{page.lang}/{page.rel} shows {key}.out but does not quote what another CPU class prints "
                f"on the line {rule.line!r}: {message!r}"
            )


def test_a_reworded_comment_keeps_the_records_and_a_changed_statement_makes_them_stale():
    """Records name a script by its code without comments (records.code_digest): a comment reworded
    (a date, a clearer phrase) keeps what the code printed on record; any change of code does not."""
    base = 'import torch\n# the sum\nprint(torch.ones(2).sum())  # 2.0\n'
    assert records.code_digest(base) == records.code_digest(base.replace("# the sum", "# the sum of two ones\n\n"))
    assert records.code_digest(base) != records.code_digest(base.replace("ones(2)", "ones(3)"))
    assert records.code_digest(base) != records.code_digest(base.replace("print(", "print('sum', "))


def test_every_awaited_record_is_still_awaited():
    """An entry of recorded/awaiting.toml whose record is current again (or whose class or script is
    gone) is stale itself: remove it."""
    by_name = {r.name: r for r in CPU_RECORDS}
    dead = []
    for name, keys in AWAITING.items():
        for key in keys:
            script = records.SNIPPETS / f"{key}.py"
            if name not in by_name or not script.is_file() or by_name[name].state(script) == "current":
                dead.append(f"{name}: {key}")
    assert not dead, f"recorded/awaiting.toml lists records that are current or gone: {dead}"
