"""What each kind of CPU, and each torch version, printed: the recorded outputs in ``recorded/``.

A page shows one output under each script (``snippets/<topic>/<name>.out``), recorded on one
machine. Readers run it on others: an Intel Xeon with AMX and AVX512-FP16, an AMD EPYC with
AVX-512, an AVX2-only laptop, a newer torch. What each of those printed is kept here, as data::

    recorded/cpu/<class>/record.toml          the machine, and one entry per script (digests)
    recorded/cpu/<class>/<topic>/<name>.out   what that script printed there, run alone as a file
    recorded/torch/<version>/...              the same for another torch version (on a CPU)

``tests/test_cpu_records.py`` then checks, on any machine and without running anything, that every
shown output with its sidecar's ``[[tolerance]]`` rules admits every class's recorded output: a
page that would fail on a class fails everywhere. A record names the script's source by its digest
when it ran; a record of an older version of the script is *stale* and is not compared (the test
says so and names the command that records it again). The output's digest is kept too, so a
recorded output edited by hand fails. A record that was copied rather than run (the AVX-512 class)
names the commit it was copied from, and must be that commit's file: a hand edit whose digest was
recomputed by hand fails too. Each record says how it was made (``made``): by runs on a machine of its
class, whose class-deciding CPU flags and kernel switches it keeps (``ran_on``, :func:`facts`), or
copied; a copied record's entry keeps its origin until a machine of the class records it (the entry
then says its own ``ran_on``), so a copy whose origin is deleted passes neither as a copy nor as a run.
What a machine printed that no record holds is ``recorded/observed.toml`` (:class:`Observation`).

One command records the machine it runs on (its class from its CPU flags), every CPU script, alone
as a file, with the environment the tests give them::

    .venv/bin/python -m docs_tools.records record              # this machine's class
    .venv/bin/python -m docs_tools.records record --avx2       # AVX2 kernels on this CPU (.ci/test-avx2's switches)
    .venv/bin/python -m docs_tools.records record --python /path/to/venv/bin/python   # another torch
    .venv/bin/python -m docs_tools.records record --only amp/memory_measure --only gpu/float8_scaled
    .venv/bin/python -m docs_tools.records status              # what is stale or missing, per record

Imports nothing beyond the standard library and :mod:`docs_tools` (the tests and the command share it).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import datetime
import hashlib
import io
import os
import platform
import re
import subprocess
import sys
import tempfile
import tokenize
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from docs_tools.outputs import normalize_output
from docs_tools.snippets import REPO, SNIPPETS, skip_reason, snippet_env, snippet_meta

RECORDS = REPO / "recorded"
RECORD_FILE = "record.toml"

# The classes of CPU whose kernels give different results, named from the CPU flags that decide
# which kernels torch, oneDNN and FBGEMM run (tests/support/shared_cache.CPU_FLAGS).
CLASSES = {
    "amx": "Intel Xeon with AMX and AVX512-FP16 (Sapphire Rapids and later): oneDNN runs float16 and bfloat16 on AMX",
    "avx512": "AVX-512 with VNNI and BF16, no AMX and no AVX512-FP16 (AMD EPYC Zen 4)",
    "avx2": "AVX2 only, no AVX-512 (the kernels of an older or smaller CPU)",
}
# .ci/test-avx2's switches: ATen, FBGEMM and MKL dispatch to their AVX2 kernels on a newer CPU.
AVX2_SWITCHES = {"ATEN_CPU_CAPABILITY": "avx2", "FBGEMM_ENABLE_INSTRUCTIONS": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}
# The CPU flags a class is decided from (class_of), what a record keeps of the machine that ran it.
CLASS_FLAGS = frozenset({"amx_int8", "avx2", "avx512_bf16", "avx512_fp16", "avx512_vnni", "avx512f"})
# How a record was made (its ``made``): "run", every entry run by `record` on a machine of the class
# (the record's ``ran_on`` says which); "copied", entries copied from a commit (each names its
# ``origin``) until a machine of the class runs them (each such entry then says its own ``ran_on``).
MADE = ("run", "copied")


def cpu_flags() -> set[str]:
    """The flags of the first CPU in /proc/cpuinfo (empty where there is none)."""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def class_of(flags: set[str], environ: dict[str, str] | None = None) -> str:
    """The class (a key of :data:`CLASSES`) whose kernels a process with ``environ`` runs on a CPU with ``flags``.

    >>> class_of({"avx2", "avx512f", "avx512_vnni", "avx512_bf16"})
    'avx512'
    >>> class_of({"avx2", "avx512f", "avx512_fp16", "amx_int8"}, {"ATEN_CPU_CAPABILITY": "avx2"})
    'avx2'
    """
    environ = os.environ if environ is None else environ
    if environ.get("ATEN_CPU_CAPABILITY", "").lower() in ("avx2", "default"):
        return "avx2"
    if {"amx_int8", "avx512_fp16"} <= flags:
        return "amx"
    if {"avx512f", "avx512_vnni"} <= flags:
        return "avx512"
    if "avx512f" in flags:
        return "avx512-novnni"  # not on record yet: int8 pair sums saturate as on AVX2 (no VNNI)
    if "avx2" in flags:
        return "avx2"
    # Another kind of machine (an ARM server, a Mac): its own class, named after the machine type.
    return platform.machine().lower() or "unknown"


def facts(flags: set[str], environ: dict[str, str] | None = None) -> str:
    """What a record keeps of the machine that ran a script: the CPU flags its class is decided from,
    and the switches that chose other kernels, as :func:`class_of_facts` reads them back.

    >>> facts({"avx2", "avx512f", "avx512_vnni", "sse4_2"}, {})
    'avx2 avx512_vnni avx512f'
    >>> facts({"avx2", "avx512f"}, dict(AVX2_SWITCHES))
    'avx2 avx512f + ATEN_CPU_CAPABILITY=avx2 FBGEMM_ENABLE_INSTRUCTIONS=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2'
    """
    environ = os.environ if environ is None else environ
    text = " ".join(sorted(set(flags) & CLASS_FLAGS))
    switches = [f"{k}={environ[k]}" for k in sorted(AVX2_SWITCHES) if environ.get(k)]
    return text + (" + " + " ".join(switches) if switches else "")


def class_of_facts(text: str) -> str:
    """The class of the machine that :func:`facts` described.

    >>> class_of_facts(facts({"avx2", "avx512f", "avx512_vnni"}, {}))
    'avx512'
    >>> class_of_facts("amx_int8 avx2 avx512_fp16 avx512f + ATEN_CPU_CAPABILITY=avx2")
    'avx2'
    """
    flags, _, switches = text.partition(" + ")
    environ = dict(s.split("=", 1) for s in switches.split() if "=" in s)
    return class_of(set(flags.split()), environ)


def digest(text: str) -> str:
    """``sha256:<hex>`` of a text (its UTF-8 bytes)."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def code_digest(source: str) -> str:
    """``code-sha256:<hex>`` of a script's code: its tokens without comments and blank lines, so a
    comment reworded (a date, a translation's wording) keeps the records of what the code printed;
    a changed statement, string or docstring makes them stale."""
    tokens = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL):
            continue
        tokens.append(f"{tokenize.tok_name[tok.type]} {tok.string!r}")
    return "code-sha256:" + hashlib.sha256("\n".join(tokens).encode("utf-8")).hexdigest()


def source_digest(script: Path) -> str:
    """The digest of a script's code, what a record names it by (:func:`code_digest`)."""
    return code_digest(script.read_text(encoding="utf-8"))


def cpu_scripts() -> list[Path]:
    """The scripts whose output a page shows and that run on a CPU (no ``requires = ["cuda"]``)."""
    return [p for p in sorted(SNIPPETS.rglob("*.py"))
            if p.with_suffix(".out").is_file() and "cuda" not in snippet_meta(p).requires]


@dataclass
class Entry:
    """One script's record: the digests of its source and of what it printed, and when.

    ``origin`` is empty for what :func:`record` ran. An output that was not run into the record but
    copied from a commit (the AVX-512 class: the outputs committed at 1481863, which CI accepted on
    an AMD EPYC) names it, ``git <commit>:<path>``, and tests/test_cpu_records.py checks that the
    record is that file of that commit: its digest can be recomputed by hand, the repository's
    history cannot be edited so.

    ``ran_on`` is what :func:`record` keeps of the machine that ran the script (:func:`facts`) where
    the record says it was copied (``made = "copied"``): in a copied record an entry without an
    origin must say what ran it, and that machine must be of the record's class. In a record made by
    runs the record's own ``ran_on`` says it for every entry.
    """

    source: str
    output: str
    date: str
    status: str = "ok"  # "ok", or "failed (exit N)": the .out then holds stdout, the .err stderr's tail
    origin: str = ""  # "" (run by `record`), or "git <40-hex commit>:<path>" (copied from that commit's file)
    ran_on: str = ""  # in a copied record, the facts (facts()) of the machine that ran this entry since


@dataclass
class Record:
    """One folder of ``recorded/``: a CPU class or a torch version, and what its scripts printed."""

    folder: Path
    kind: str  # "cpu" or "torch"
    name: str  # the class ("amx") or the version ("2.15.0")
    meta: dict = field(default_factory=dict)  # machine, torch, python, how
    entries: dict[str, Entry] = field(default_factory=dict)  # "amp/memory_measure" -> Entry

    @property
    def label(self) -> str:
        return f"{self.kind}/{self.name}"

    def output_path(self, key: str) -> Path:
        return self.folder / f"{key}.out"

    def output(self, key: str) -> str:
        return self.output_path(key).read_text(encoding="utf-8")

    @property
    def made(self) -> str:
        """How the record was made: "run" or "copied" (:data:`MADE`; "" where it does not say)."""
        return str(self.meta.get("made", ""))

    def ran_on(self, key: str) -> str:
        """The facts of the machine that ran ``key`` into this record ("" for a copy, or where unsaid)."""
        entry = self.entries[key]
        if entry.origin:
            return ""
        return entry.ran_on or (str(self.meta.get("ran_on", "")) if self.made == "run" else "")

    def state(self, script: Path) -> str:
        """``"current"``, ``"stale"`` (recorded from another version of the script) or ``"missing"``."""
        entry = self.entries.get(key_of(script))
        if entry is None:
            return "missing"
        return "current" if entry.source == source_digest(script) else "stale"

    def save(self) -> None:
        how = ("each CPU script run alone as a file" if self.made != "copied" else
               "copied from a commit (each entry's origin) until a machine of the class runs it (ran_on)")
        lines = [f"# What {self.label} printed: {how} (docs_tools/records.py).",
                 f"# Record again with: {self.meta.get('command', '.venv/bin/python -m docs_tools.records record')}",
                 f"kind = {_q(self.kind)}", f"name = {_q(self.name)}"]
        lines += [f"{k} = {_q(str(v))}" for k, v in sorted(self.meta.items())]
        for key in sorted(self.entries):
            e = self.entries[key]
            lines += ["", f"[outputs.{_q(key)}]", f"source = {_q(e.source)}", f"output = {_q(e.output)}", f"date = {_q(e.date)}"]
            if e.status != "ok":
                lines.append(f"status = {_q(e.status)}")
            if e.origin:
                lines.append(f"origin = {_q(e.origin)}")
            if e.ran_on:
                lines.append(f"ran_on = {_q(e.ran_on)}")
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / RECORD_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def key_of(script: Path) -> str:
    """``snippets/amp/memory_measure.py`` -> ``"amp/memory_measure"``."""
    return Path(script).resolve().relative_to(SNIPPETS).with_suffix("").as_posix()


def load(folder: Path) -> Record:
    data = tomllib.loads((folder / RECORD_FILE).read_text(encoding="utf-8"))
    meta = {k: v for k, v in data.items() if k not in ("kind", "name", "outputs")}
    entries = {k: Entry(**v) for k, v in data.get("outputs", {}).items()}
    return Record(folder, data["kind"], data["name"], meta, entries)


def all_records(kind: str | None = None) -> list[Record]:
    """Every record of ``recorded/`` (only CPU classes with ``kind="cpu"``, torch versions with ``"torch"``)."""
    found = [load(f.parent) for f in sorted(RECORDS.glob(f"*/*/{RECORD_FILE}"))]
    return [r for r in found if kind is None or r.kind == kind]


GIT_ORIGIN = re.compile(r"git ([0-9a-f]{40}):(\S+)")


def committed_texts(origins: list[str]) -> dict[str, str | None]:
    """The text of each ``git <commit>:<path>`` origin, read from this checkout's history with one
    ``git cat-file --batch`` (None where git has no such file). Raises OSError where there is no git."""
    wanted = {o: GIT_ORIGIN.fullmatch(o) for o in origins}
    asked = [f"{m.group(1)}:{m.group(2)}" for m in wanted.values() if m]
    proc = subprocess.run(["git", "-C", str(REPO), "cat-file", "--batch"], input=("\n".join(asked) + "\n").encode(),
                          capture_output=True, check=True)
    found: dict[str, str | None] = {}
    out = proc.stdout
    for name in asked:
        header, _, out = out.partition(b"\n")
        if header.endswith(b" missing"):
            found[name] = None
            continue
        size = int(header.split()[2])
        found[name], out = out[:size].decode("utf-8"), out[size + 1:]
    return {o: (found.get(f"{m.group(1)}:{m.group(2)}") if m else None) for o, m in wanted.items()}


# What a machine printed that no record here holds: an earlier run on a machine that has not recorded
# since, with switches no class is recorded with, or a class whose record was copied, not run
# (recorded/observed.toml). Evidence of how far a shown number moves, as the records are: the tests
# check that the rules admit it, and count it when they check that a rule covers only numbers that
# vary and states no more spread than was seen.
OBSERVED = RECORDS / "observed.toml"


@dataclass(frozen=True)
class Observation:
    """One number of a script's output as some machine printed it, off the record.

    ``line`` is a regular expression of the shown lines it is about and ``number`` the position of the
    number on them (1-based, negative from the end, as a rule's); ``printed`` what was printed there,
    one per shown line the pattern matches, in order, or ``deviation`` the largest ``|printed - shown|``
    where the values were not kept. ``on`` names the machine (its CPU, kernels, switches), ``code`` the
    script's code it ran (:func:`code_digest`: another code makes the observation stale), ``source``
    where it is written down (a commit, a log)."""

    script: str
    line: str
    number: int
    on: str
    code: str
    source: str
    printed: tuple[str, ...] = ()
    deviation: float | None = None


def observations() -> list[Observation]:
    """Every entry of recorded/observed.toml."""
    if not OBSERVED.is_file():
        return []
    found = []
    for entry in tomllib.loads(OBSERVED.read_text(encoding="utf-8")).get("observed", []):
        entry = dict(entry)
        entry["printed"] = tuple(entry.get("printed", ()))
        found.append(Observation(**entry))
    return found


def _run(python: str, script: Path, env: dict[str, str]) -> tuple[int, str, str]:
    meta = snippet_meta(script)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            proc = subprocess.run([python, str(script)], cwd=tmp, env=env, capture_output=True, text=True,
                                  timeout=meta.timeout)
        except subprocess.TimeoutExpired as error:
            stdout = error.stdout if isinstance(error.stdout, str) else ""
            return -1, stdout, f"timed out after {meta.timeout} s"
    stderr = "\n".join(ln for ln in proc.stderr.splitlines() if not meta.stderr_allowed(ln))
    return proc.returncode, proc.stdout, stderr


def _version_of(python: str, env: dict[str, str]) -> dict[str, str]:
    code = ("import json, platform, torch; v = {'torch': torch.__version__, 'python': platform.python_version()}\n"
            "try:\n import torchao; v['torchao'] = torchao.__version__\nexcept Exception: pass\n"
            "try:\n import transformers; v['transformers'] = transformers.__version__\nexcept Exception: pass\n"
            "print(json.dumps(v))")
    import json

    out = subprocess.run([python, "-W", "ignore", "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _missing_modules(python: str, modules) -> list[str]:
    """The modules of ``modules`` that ``python`` cannot import (found with find_spec, nothing imported):
    a script that needs executorch is not run in a virtualenv without it, as the suite skips it."""
    if not modules:
        return []
    check = "import importlib.util, sys; print(*[m for m in sys.argv[1:] if importlib.util.find_spec(m) is None])"
    done = subprocess.run([python, "-c", check, *modules], capture_output=True, text=True, check=True)
    return done.stdout.split()


def record(*, avx2: bool = False, python: str | None = None, only: list[str] | None = None, stale: bool = False,
           jobs: int = 2, log=print) -> Record:
    """Run every CPU script (or those of ``only``, or with ``stale`` those whose record is stale or
    missing) alone as a file and write what it printed into its record; returns the record."""
    env = snippet_env()
    if avx2:
        env.update(AVX2_SWITCHES)
        env["TORCHINDUCTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="inductor-avx2-")  # as .ci/test-avx2
    python = python or sys.executable
    versions = _version_of(python, env)
    if python == sys.executable:
        kind, name = "cpu", class_of(cpu_flags(), env)
    else:
        kind, name = "torch", versions["torch"].split("+")[0]
    folder = RECORDS / kind / name
    rec = load(folder) if (folder / RECORD_FILE).is_file() else Record(folder, kind, name)
    command = "python -m docs_tools.records record" + (" --avx2" if avx2 else "") + (
        f" --python <a venv with torch {name}>" if kind == "torch" else "")
    # How the record was made: a new one by this run; a copied one stays copied while it holds copies,
    # and each entry run into it says what ran it (ran_on), so that a copy cannot pass for a run.
    here = facts(cpu_flags(), env)
    made = rec.made or "run"
    rec.meta["made"] = made
    if made == "run":
        rec.meta["ran_on"] = here
    rec.meta.update({
        "machine": f"{cpu_model()} ({platform.machine()}; class {class_of(cpu_flags(), {})}"
                   + (", run with ATEN_CPU_CAPABILITY=avx2 FBGEMM_ENABLE_INSTRUCTIONS=AVX2 MKL_ENABLE_INSTRUCTIONS=AVX2" if avx2 else "")
                   + ")",
        "command": command, **versions,
    })
    if kind == "cpu":
        rec.meta["description"] = CLASSES.get(name, f"{cpu_model()} ({platform.machine()}): a class not described in CLASSES yet")
    scripts = cpu_scripts()
    if only:
        scripts = [s for s in scripts if any(key_of(s) == o or key_of(s).startswith(o.rstrip("/") + "/") for o in only)]
    if stale:
        scripts = [s for s in scripts if rec.state(s) != "current"]
    if python == sys.executable:
        scripts = [s for s in scripts if skip_reason(snippet_meta(s)) is None]
    else:  # another torch's virtualenv: its own packages decide (the CUDA scripts run there, on the CPU)
        scripts = [s for s in scripts if not _missing_modules(python, snippet_meta(s).requires_module)]
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()

    def one(script: Path):
        return script, source_digest(script), _run(python, script, env)

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for n, (script, src, (code, stdout, stderr)) in enumerate(pool.map(one, scripts), start=1):
            key = key_of(script)
            out = normalize_output(stdout) + "\n"
            path = rec.output_path(key)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(out, encoding="utf-8")
            err = path.with_suffix(".err")
            status = "ok" if code == 0 and not stderr.strip() else (
                f"failed (exit {code})" if code != 0 else "wrote to stderr")
            if status != "ok":
                err.write_text(stderr[-4000:] + "\n", encoding="utf-8")
            else:
                err.unlink(missing_ok=True)
            rec.entries[key] = Entry(src, digest(out), today, status, ran_on=here if made == "copied" else "")
            log(f"[{n}/{len(scripts)}] {rec.label} {key}: {status}")
            rec.save()  # after each script: an interrupted run keeps what it recorded
    if made == "copied" and not any(e.origin for e in rec.entries.values()):
        # every copy has been run on the class since: a record made by runs (each entry keeps its ran_on)
        rec.meta.update({"made": "run", "ran_on": here})
    rec.save()
    return rec


def status_lines() -> list[str]:
    """For each record: how many scripts are current, stale, missing or failed."""
    lines = []
    scripts = cpu_scripts()
    for rec in all_records():
        states = {s: rec.state(s) for s in scripts}
        stale = [key_of(s) for s, st in states.items() if st == "stale"]
        missing = [key_of(s) for s, st in states.items() if st == "missing"]
        failed = [k for k, e in rec.entries.items() if e.status != "ok"]
        copied = sum(bool(e.origin) for e in rec.entries.values())
        lines.append(f"{rec.label} (made: {rec.made or 'unsaid'}): {sum(st == 'current' for st in states.values())} current, "
                     f"{len(stale)} stale {stale}, {len(missing)} missing {missing}, {len(failed)} not ok {failed}"
                     + (f", {copied} copied from a commit (until a {rec.name} machine records them)" if copied else ""))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m docs_tools.records", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="record this machine's class (or another torch) for every CPU script")
    rec.add_argument("--avx2", action="store_true", help="with .ci/test-avx2's switches: the AVX2 class")
    rec.add_argument("--python", help="another interpreter (a venv with another torch): records recorded/torch/<version>")
    rec.add_argument("--only", action="append", help="a script key (amp/memory_measure) or a topic (amp); repeatable")
    rec.add_argument("--stale", action="store_true", help="only the scripts whose record is stale or missing")
    rec.add_argument("-j", "--jobs", type=int, default=2)
    sub.add_parser("status", help="what is stale or missing in each record")
    args = parser.parse_args(argv)
    if args.command == "status":
        print("\n".join(status_lines()))
        return 0
    result = record(avx2=args.avx2, python=args.python, only=args.only, stale=args.stale, jobs=args.jobs)
    bad = [k for k, e in result.entries.items() if e.status != "ok"]
    print(f"{result.label}: {len(result.entries)} scripts recorded in {result.folder.relative_to(REPO)}"
          + (f"; not ok: {bad}" if bad else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
