"""Every output a page shows, with its rules, admits what every CPU class on record printed.

``recorded/cpu/<class>/`` holds what each script printed on each kind of CPU the project has run on
(docs_tools/records.py): an Intel Xeon with AMX and AVX512-FP16, an AMD EPYC with AVX-512, AVX2-only
kernels. These tests run nothing: they compare each page's shown output (``snippets/**/*.out``) with
each class's recorded output under the snippet's ``[[tolerance]]`` rules, exactly as the copy-paste
test compares a real run. So a shown output that only one class prints fails on every machine, not
only when CI next lands on another CPU.

They also keep the records and the rules honest:

* a recorded output edited by hand no longer matches the digest recorded with it; a record copied
  from a commit rather than run (the AVX-512 class) is that commit's file, so a hand edit whose
  digest was recomputed by hand fails too;
* a bound's ``spread`` (the largest difference observed) covers every class's recorded deviation,
  and the bound allows no more than twice that spread plus one unit in the last printed place;
* the evidence (every record, CPU classes and torch versions, and ``recorded/observed.toml``: what a
  machine printed that no record holds) bounds each rule from above, number by number: a bound
  covers only numbers (a line's and its position's) that moved somewhere, and states no more spread
  than the largest move seen plus one unit in the last printed place; each observation is admitted
  by the rules and lies within the spread;
* where a whole line depends on the class (``varies = "cpu"``), both languages' pages quote what
  each class prints on that line;
* a record of an older version of a script (stale) is not compared: the test says which, and the
  command that records it again on that class.
"""

from __future__ import annotations

import functools
import math
import re
import subprocess
import tomllib

import pytest

from docs_tools import records
from docs_tools.docs_model import REPO, markdown_pages
from docs_tools.outputs import (
    Rule,
    bound_excess,
    compare_outputs,
    deviations,
    last_digit_unit,
    normalize_output,
    numbers_of,
)
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


# ---- the evidence bounds each rule from above --------------------------------------------------
# What was seen of a script's output: every current record that ran through (the CPU classes and the
# torch versions: a log line on stderr from PyPI's CUDA build leaves its stdout whole) and the
# observations of recorded/observed.toml. A rule that covers a number that never moved (a stable line,
# or a line's exact numbers beside the one that moves: a rule without its `number`), or that states more
# spread than the largest move seen, widens the test without evidence: a page could then show one value
# while a reader's run prints another.
EVIDENCE_RECORDS = [r for r in records.all_records()]
OBSERVED = records.observations()


def _is_integer(token: str) -> bool:
    return token.replace(",", "").lstrip("+-").isdigit()


def _value(token: str) -> float:
    return float(token.replace(",", ""))


def _covered(lines: list[str], rule: Rule) -> dict[int, list[int]]:
    """{index of a shown line: the positions (1-based) of the numbers the rule covers there}: a bound's, those
    with a fraction (an integer stays exact under any bound below 1); a measurement's (``varies = "run"``), all."""
    found = {}
    for i, line in enumerate(lines):
        tokens = numbers_of(line)
        positions = [p for p, t in enumerate(tokens, 1)
                     if (rule.measured or not _is_integer(t)) and rule.covers(line, p, len(tokens))]
        if positions:
            found[i] = positions
    return found


def _observed_on(script, lines: list[str]) -> list[tuple[records.Observation, int, int, float]]:
    """(observation, shown line index, position, |printed - shown|) for each number the observations of
    ``script`` name on its shown lines."""
    key = records.key_of(script)
    found = []
    for obs in (o for o in OBSERVED if o.script == key):
        matched = [i for i, line in enumerate(lines) if re.search(obs.line, line)]
        for n, i in enumerate(matched):
            tokens = numbers_of(lines[i])
            position = obs.number if obs.number > 0 else len(tokens) + 1 + obs.number
            if not 1 <= position <= len(tokens):
                continue
            if obs.printed:
                if n >= len(obs.printed):
                    continue
                d = abs(_value(obs.printed[n]) - _value(tokens[position - 1]))
            else:
                d = obs.deviation or 0.0
            found.append((obs, i, position, d))
    return found


def _evidence(script, rule: Rule) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], list[str]]]:
    """For each number the rule covers, ``(index of the shown line, position on it)``: the largest
    |printed - shown| of that number in the evidence (0.0 where it never moved), and where each move
    was seen. Per number, not per line: a rule that covers a line's every number (no ``number``) must
    find each of them moved, not only one."""
    lines = normalize_output(script.with_suffix(".out").read_text(encoding="utf-8")).splitlines()
    covered = _covered(lines, rule)
    moved = {(i, p): 0.0 for i, ps in covered.items() for p in ps}
    where: dict[tuple[int, int], list[str]] = {ip: [] for ip in moved}
    for label, printed in _evidence_outputs(script, len(lines)):
        for i, positions in covered.items():
            a, b = numbers_of(lines[i]), numbers_of(printed[i])
            if len(a) != len(b):
                continue
            for p in positions:
                x, y = _value(a[p - 1]), _value(b[p - 1])
                if x != y and not (math.isnan(x) or math.isnan(y)):
                    moved[i, p] = max(moved[i, p], abs(y - x))
                    where[i, p].append(f"{label} {b[p - 1]}")
    for obs, i, position, d in _observed_on(script, lines):
        if (i, position) in moved and d > 0:
            moved[i, position] = max(moved[i, position], d)
            where[i, position].append(f"observed ({obs.on}) {d:g} off")
    return moved, where


def _evidence_outputs(script, count: int) -> list[tuple[str, list[str]]]:
    """(record, lines) of every current record that ran ``script`` through and printed ``count`` lines."""
    key = records.key_of(script)
    found = []
    for rec in EVIDENCE_RECORDS:
        if rec.state(script) != "current" or rec.entries[key].status not in ("ok", "wrote to stderr"):
            continue
        printed = normalize_output(rec.output(key)).splitlines()
        if len(printed) == count:
            found.append((rec.label, printed))
    return found


def _still(lines: list[str], moved: dict[tuple[int, int], float]) -> list[str]:
    """The covered numbers that never moved, each named by its position and its line."""
    return [f"number {p} ({numbers_of(lines[i])[p - 1]}) of {lines[i].strip()!r}" for (i, p), d in sorted(moved.items()) if d == 0]


@pytest.mark.parametrize(("script", "rule"), _bounded_rules())
def test_a_rule_covers_only_numbers_that_vary(script, rule: Rule):
    """A bound covers a number of a shown line only where that number moved in the evidence (a record
    or an observation), number by number: the numbers no machine ever printed otherwise stay exact, so
    a rule whose ``line`` is widened over such lines (the stable cells of a table), or whose ``number``
    is dropped or widened over a line's exact numbers, fails."""
    moved, _ = _evidence(script, rule)
    lines = normalize_output(script.with_suffix(".out").read_text(encoding="utf-8")).splitlines()
    still = _still(lines, moved)
    assert not still, (
        f"{script.relative_to(REPO)}: rule {rule.line!r} (number {rule.number}) covers numbers that no record and no "
        f"observation (recorded/observed.toml) printed otherwise; narrow its line or its number so that these stay exact:\n  "
        + "\n  ".join(still)
    )


def _measured_rules():
    return [pytest.param(script, rule, id=f"{_id(script)}#{n + 1}")
            for script in sorted(records.SNIPPETS.rglob("*.py"))
            for n, rule in enumerate(snippet_meta(script).tolerance) if rule.measured]


@pytest.mark.parametrize(("script", "rule"), _measured_rules())
def test_a_measurement_rule_covers_only_numbers_that_vary(script, rule: Rule):
    """``varies = "run"`` accepts any value, so it may cover only measurements: every number it covers
    (integers too) moved between the records, number by number, as a bound's must. Its ``line`` widened
    over an exact line (``^checkpointed`` for ``^checkpointed step:``, which also took the activations'
    3.63 MiB: any value passed) or its ``number`` dropped fails (independent review, 2026-11-29: the
    evidence checks left every ``varies`` rule out). A script no record holds (the CUDA scripts) has no
    evidence to judge by: skipped, named."""
    lines = normalize_output(script.with_suffix(".out").read_text(encoding="utf-8")).splitlines()
    moved, _ = _evidence(script, rule)
    assert moved, f"{script.relative_to(REPO)}: varies = \"run\" rule {rule.line!r} (number {rule.number}) covers no number of the shown output"
    if len(_evidence_outputs(script, len(lines))) < 2:
        pytest.skip(f"{records.key_of(script)}: fewer than two records that ran through to compare its measurements")
    still = _still(lines, moved)
    assert not still, (
        f"{script.relative_to(REPO)}: varies = \"run\" rule {rule.line!r} (number {rule.number}) accepts any value for "
        "numbers that every record printed alike; narrow its line or its number so that these stay exact:\n  "
        + "\n  ".join(still)
    )


@pytest.mark.parametrize(("script", "rule"), _bounded_rules())
def test_a_spread_is_no_larger_than_what_was_seen(script, rule: Rule):
    """The stated spread is at most the largest move the evidence shows plus one unit in the last printed
    place: a spread (and with it the bound) raised beyond what any machine printed fails."""
    if rule.spread is None:
        pytest.fail(f"{script.relative_to(REPO)}: rule {rule.line!r} states no spread")
    moved, where = _evidence(script, rule)
    lines = normalize_output(script.with_suffix(".out").read_text(encoding="utf-8")).splitlines()
    unit = max((last_digit_unit(numbers_of(lines[i])[p - 1]) for i, p in moved), default=0.0)
    seen = max(moved.values(), default=0.0)
    assert rule.spread <= (seen + unit) * (1 + 1e-9) + 1e-12, (
        f"{script.relative_to(REPO)}: rule {rule.line!r} states spread {rule.spread:g}, but the largest move seen is "
        f"{seen:g} (one unit: {unit:g}); seen: {sorted({w for ws in where.values() for w in ws}) or 'none'}. "
        "Lower the spread and the bound to what was seen, or add the record or observation that shows more"
    )


def _observations():
    return [pytest.param(o, id=f"{o.script}:{o.line}#{o.number}") for o in OBSERVED]


@pytest.mark.parametrize("obs", _observations())
def test_each_observation_is_admitted_by_the_rules_and_within_the_spread(obs):
    """What a machine printed off the record (recorded/observed.toml) is evidence like a record: of the
    script's current code, on shown lines a bound covers, admitted by that bound (else the page fails on
    that machine) and within the rule's spread; and it says where it was seen."""
    script = records.SNIPPETS / f"{obs.script}.py"
    assert script.is_file() and script.with_suffix(".out").is_file(), f"{obs.script}: no such script with a shown output"
    assert obs.code == records.source_digest(script), (
        f"{obs.script}: observed with another version of the script's code (stale): observe it again, or take it off "
        "recorded/observed.toml")
    assert CLASS_NAMED.search(obs.on) and obs.source.strip(), f"{obs.script}: say on what machine it was seen, and where it is written down"
    assert bool(obs.printed) != (obs.deviation is not None), f"{obs.script}: give printed values or a deviation, one of them"
    lines = normalize_output(script.with_suffix(".out").read_text(encoding="utf-8")).splitlines()
    matched = [i for i, line in enumerate(lines) if re.search(obs.line, line)]
    assert matched, f"{obs.script}: {obs.line!r} matches no shown line"
    assert not obs.printed or len(obs.printed) == len(matched), (
        f"{obs.script}: {len(obs.printed)} printed values for {len(matched)} shown lines matching {obs.line!r}")
    rules = [r for r in snippet_meta(script).tolerance if r.varies is None]
    for n, i in enumerate(matched):
        tokens = numbers_of(lines[i])
        position = obs.number if obs.number > 0 else len(tokens) + 1 + obs.number
        assert 1 <= position <= len(tokens), f"{obs.script}: no number {obs.number} on {lines[i]!r}"
        shown = tokens[position - 1]
        rule = next((r for r in rules if r.covers(lines[i], position, len(tokens))), None)
        assert rule is not None and not _is_integer(shown), (
            f"{obs.script}: number {obs.number} of {lines[i].strip()!r} moved on {obs.on}, and no bound covers it: the page "
            "fails there")
        if obs.printed:
            printed = obs.printed[n]
            assert rule.allows(_value(shown), _value(printed)), (
                f"{obs.script}: {printed} (on {obs.on}) is not within {rule} of the shown {shown}: the page fails there")
            d = abs(_value(printed) - _value(shown))
        else:
            d = obs.deviation
            assert d <= (rule.abs + rule.rel * abs(_value(shown))) * (1 + 1e-9), (
                f"{obs.script}: a move of {d:g} (on {obs.on}) is beyond {rule} of the shown {shown}: the page fails there")
        assert rule.spread is not None and d <= rule.spread * (1 + 1e-9) + 1e-12, (
            f"{obs.script}: rule {rule.line!r} states spread {rule.spread} but {obs.on} printed {d:g} off")


def _copied_records():
    return [pytest.param(r, id=r.label) for r in records.all_records() if any(e.origin for e in r.entries.values())]


@pytest.mark.parametrize("rec", _copied_records())
def test_a_copied_record_is_the_file_of_its_commit(rec):
    """A record entry that was copied, not run, names its commit and file (``origin``), and is that file
    byte for byte: a digest can be recomputed by hand, the repository's history cannot be edited so. An
    output changed by hand with its digest recomputed fails here; one recorded by a run on that class
    (python -m docs_tools.records record) has no origin."""
    copied = {key: e.origin for key, e in rec.entries.items() if e.origin}
    bad = [f"{key}: {origin!r}" for key, origin in copied.items() if not records.GIT_ORIGIN.fullmatch(origin)]
    assert not bad, f"{rec.label}: an origin is 'git <40-hex commit>:<path>': {bad}"
    try:
        texts = records.committed_texts(list(copied.values()))
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"no git history here to check the copies against ({error})")
    missing = [key for key, origin in copied.items() if texts[origin] is None]
    if missing:
        commit = records.GIT_ORIGIN.fullmatch(copied[missing[0]]).group(1)
        if subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", commit], check=False, capture_output=True).returncode:
            pytest.skip(f"this clone lacks the commit the copies came from (a shallow clone?): {commit}")
    assert not missing, f"{rec.label}: no such file in the commit named: {missing}"
    differ = [key for key, origin in copied.items() if rec.output(key) != texts[origin]]
    assert not differ, (
        f"{rec.label}: these outputs are not the files they were copied from (edited by hand?): {differ}; "
        "record them on a machine of the class (python -m docs_tools.records record --only <key>), never by hand")


@pytest.mark.parametrize("rec", records.all_records(), ids=lambda r: r.label)
def test_a_record_says_how_each_entry_was_made(rec):
    """Each record says how it was made (``made``): by runs of ``python -m docs_tools.records record``
    on a machine of its class, whose facts (the CPU flags the class is decided from, and the kernel
    switches) it keeps in ``ran_on``, or copied from commits. A copied record's entries each keep their
    ``origin`` until a machine of the class runs them, and such an entry says what ran it (its own
    ``ran_on``, of the record's class). So a copy whose origin is deleted (and its digest re-sealed)
    does not pass for a run: it is neither a copy the history can check nor a run of a machine of the
    class. A record made by runs holds no copies."""
    assert rec.made in records.MADE, (
        f"{rec.label}: the record must say how it was made: made = \"run\" (python -m docs_tools.records record on a "
        f"machine of the class, ran_on its facts) or \"copied\" (every entry names its origin); it says {rec.made!r}")
    problems = []
    if rec.made == "run":
        problems += [f"{key}: a copy (origin {e.origin!r}) in a record made by runs: say made = \"copied\", or record it"
                     for key, e in rec.entries.items() if e.origin]
        if not rec.meta.get("ran_on"):
            problems.append("made by runs, but ran_on (the facts of the machine: records.facts) is missing")
    for key, entry in rec.entries.items():
        if entry.origin and entry.ran_on:
            problems.append(f"{key}: both an origin (a copy) and ran_on (a run): it is one or the other")
        elif not entry.origin and not rec.ran_on(key):
            problems.append(
                f"{key}: no origin and no run: an entry of a copied record keeps its origin until a {rec.name} machine "
                f"records it (python -m docs_tools.records record --only {key}, which writes ran_on); never delete it by hand")
        elif rec.kind == "cpu" and not entry.origin and records.class_of_facts(rec.ran_on(key)) != rec.name:
            problems.append(f"{key}: ran on a machine of class {records.class_of_facts(rec.ran_on(key))!r} "
                            f"({rec.ran_on(key)!r}), not {rec.name!r}")
    if rec.kind == "torch":
        assert str(rec.meta.get("torch", "")).split("+")[0] == rec.name, f"{rec.label}: recorded with torch {rec.meta.get('torch')!r}"
    assert not problems, f"{rec.label} (made = {rec.made!r}):\n  " + "\n  ".join(problems)


def test_how_a_record_was_made_is_what_record_writes(tmp_path, monkeypatch):
    """``record`` keeps that word: into a copied record it writes each run entry with the machine's facts
    and leaves the other copies as they were; once no copy is left the record is made by runs."""
    script = records.SNIPPETS / "amp/memory_measure.py"
    key = records.key_of(script)
    folder = tmp_path / "cpu" / "avx512"
    copied = records.Record(folder, "cpu", "avx512", {"made": "copied"}, {
        key: records.Entry("code-sha256:old", "sha256:x", "2026-11-27", origin="git " + "0" * 40 + f":snippets/{key}.out"),
        "amp/other": records.Entry("code-sha256:old", "sha256:y", "2026-11-27", origin="git " + "0" * 40 + ":snippets/amp/other.out"),
    })
    copied.save()
    amd = {"avx2", "avx512f", "avx512_vnni", "avx512_bf16"}
    monkeypatch.setattr(records, "RECORDS", tmp_path)
    monkeypatch.setattr(records, "cpu_flags", lambda: amd)
    monkeypatch.setattr(records, "cpu_scripts", lambda: [script])
    monkeypatch.setattr(records, "_version_of", lambda python, env: {"torch": "2.13.0+cpu", "python": "3.11"})
    monkeypatch.setattr(records, "_run", lambda python, s, env: (0, "printed\n", ""))
    for switch in records.AVX2_SWITCHES:  # as on the AMD machine, also under .ci/test-avx2
        monkeypatch.delenv(switch, raising=False)
    rec = records.record(log=lambda *a: None)
    again = records.load(folder)
    assert rec.folder == folder and again.made == "copied"
    assert again.entries[key].origin == "" and records.class_of_facts(again.ran_on(key)) == "avx512"
    assert again.entries["amp/other"].origin and not again.ran_on("amp/other")
    del again.entries["amp/other"]
    again.save()
    records.record(log=lambda *a: None)
    assert records.load(folder).made == "run" and records.class_of_facts(records.load(folder).meta["ran_on"]) == "avx512"


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
