"""Running a page's blocks as a reader pastes them, and judging what they printed.

The blocks (paste_plan.py: as the copy buttons give them, with the outputs shown under them) run in
one fresh interpreter per page, :func:`run_pasted`: the reader venv's ``python`` (reader_venv.py)
with the text of paste_driver.py as ``-c`` (nothing imported from the repository), in an empty
folder holding only the page's downloads (``data-save-as``).

:func:`problems` compares what each block printed with the output shown under it using
:func:`docs_tools.outputs.compare_outputs` (text exactly, each number exactly unless one of the
snippet's ``[[tolerance]]`` rules covers it), the same comparison as test_snippets.py, and
:func:`run_page` fails a page whose run compared fewer outputs than the Markdown model finds on it
(paste_plan.outputs_on_page): a comparison switched off, or an output the plan lost, cannot pass
unseen.

A page that passed is kept (:class:`PageCache`) under everything that decides it
(:func:`page_run_key`) and not run again while none of that changes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from docs_tools import warning_policy
from docs_tools.docs_model import REPO
from docs_tools.outputs import compare_outputs, normalize_output
from tests.support.paste_driver import MARKER
from tests.support.paste_plan import Block
from tests.support.reader_venv import ReaderVenv, wheel_content
from tests.support.shared_cache import cache_home, cpu_class


@dataclass
class Outcome:
    results: list[dict]
    stdout: dict[int, str]
    stderr: dict[int, str]
    returncode: int
    tail: str


def _split(text: str) -> dict[int, str]:
    parts: dict[int, str] = {}
    current = 0
    pattern = re.compile("^" + re.escape(MARKER).replace(r"\{index\}", r"(\d+)") + "$", re.M)
    pos = 0
    for m in pattern.finditer(text):
        parts[current] = parts.get(current, "") + text[pos : m.start()]
        current, pos = int(m.group(1)), m.end()
    parts[current] = parts.get(current, "") + text[pos:]
    return parts


DRIVER = Path(__file__).with_name("paste_driver.py")


def run_pasted(blocks: list[Block], workdir: Path, env: dict[str, str], timeout: int,
               files: dict[str, str] | None = None, python: str | Path | None = None) -> Outcome:
    """Run the blocks in one fresh interpreter in ``workdir``, after saving the page's downloads there.

    ``python`` is the reader venv's interpreter (:class:`~tests.support.reader_venv.ReaderVenv`); by
    default the one running this. The driver is handed over as text (``python -c``), so the
    interpreter imports nothing from the repository; the plan and its result live next to
    ``workdir``, not in it.
    """
    for name, text in (files or {}).items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(text, encoding="utf-8")
    plan = workdir.parent / f"{workdir.name}.plan.json"
    allowed = [{"prefix": e.prefix, "category": e.category} for e in warning_policy.ALLOWED]
    plan.write_text(json.dumps({"blocks": [asdict(b) for b in blocks], "warnings": allowed}), encoding="utf-8")
    if "PWD" in env:  # as a shell has it after `cd` into the folder
        env = {**{k: v for k, v in env.items() if k != "OLDPWD"}, "PWD": str(workdir)}
    try:
        proc = subprocess.run(
            [str(python or sys.executable), "-c", DRIVER.read_text(encoding="utf-8"), str(plan)],
            cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as err:
        out = err.stdout.decode() if isinstance(err.stdout, bytes) else (err.stdout or "")
        tail = err.stderr.decode() if isinstance(err.stderr, bytes) else (err.stderr or "")
        proc = subprocess.CompletedProcess(err.cmd, -9, out, tail + f"\n(still running after {timeout} s: stopped)")
    result_file = Path(str(plan) + ".result")
    results = json.loads(result_file.read_text(encoding="utf-8")) if result_file.exists() else []
    return Outcome(results, _split(proc.stdout), _split(proc.stderr), proc.returncode, proc.stderr[-3000:])


def problems(where: str, blocks: list[Block], outcome: Outcome) -> list[str]:
    """Everything a reader pasting these blocks would trip over, as messages."""
    return judge(where, blocks, outcome)[0]


def judge(where: str, blocks: list[Block], outcome: Outcome) -> tuple[list[str], set[int]]:
    """(:func:`problems`, the blocks whose shown output was compared with what they printed)."""
    by_index = {b.index: b for b in blocks}
    found = []
    done = {r["index"]: r for r in outcome.results}
    for r in outcome.results:
        if r["status"] == "failed":
            b = by_index[r["index"]]
            how = f"saved as {b.title} and run with `python {b.title}`" if b.kind == "file" else "pasted"
            found.append(f"{where}: block {b.index} ({b.origin}), {how}, raised:\n{r['error']}")
    if not found and len(done) < len(blocks):
        found.append(f"{where}: the interpreter died (exit {outcome.returncode}) after block "
                     f"{max(done, default=0)} of {len(blocks)}:\n{outcome.tail}")
    for r in outcome.results:
        if r.get("displayed"):
            b = by_index[r["index"]]
            found.append(f"{where}: block {b.index} ({b.origin}) ends in an expression whose value a notebook shows "
                         f"under the cell (Jupyter displays the last expression's value), and the page does not: "
                         f"{r['displayed']}. Assign it, or end the block with a statement (the page's notebook "
                         "must print what the page shows)")
    for index, text in outcome.stderr.items():
        b = by_index.get(index)
        if b is None or done.get(index, {}).get("status") != "ok":
            continue
        tolerated = [re.compile(p) for p in b.allow_stderr]
        stray = [ln for ln in text.splitlines() if ln.strip() and not any(p.search(ln) for p in tolerated)]
        if stray:
            found.append(f"{where}: block {index} ({b.origin}) wrote to stderr:\n" + "\n".join(stray))
    compared: set[int] = set()
    for b in blocks:
        if b.expected is None or done.get(b.index, {}).get("status") != "ok":
            continue
        shown = normalize_output(b.expected)
        real = normalize_output(outcome.stdout.get(b.index, ""))
        difference = None if shown == real else compare_outputs(shown, real, b.tolerance)
        compared.add(b.index)
        if difference:
            found.append(f"{where}: block {b.index} ({b.origin}) printed something else than the output shown "
                         f"under it: {difference}\n--- shown\n{shown}\n"
                         f"--- printed when pasted after blocks 1-{b.index - 1}\n{real}")
    return found, compared


def unchecked_outputs(where: str, blocks: list[Block], compared: set[int], shown: int) -> list[str]:
    """A problem unless the outputs compared and those of skipped blocks are all ``shown`` outputs."""
    skipped = sum(1 for b in blocks if b.skip and b.expected is not None and b.index not in compared)
    if len(compared) + skipped == shown:
        return []
    return [f"{where}: the page shows {shown} checked outputs (docs_tools.docs_model.expected_outputs: included "
            f".out files and expected-output blocks) but the run compared {len(compared)} and skipped {skipped}: "
            "an output went unchecked (the plan lost it, or the comparison was switched off)"]


# -- the pages' outcomes, kept while nothing that decides them changes ------------------------------

# What decides a run's outcome besides the page (README "What the caches key on"): the code that
# plans, runs and judges the blocks.
RUNNER_FILES = ("tests/support/copy_paste.py", "tests/support/paste_plan.py", "tests/support/reader_venv.py",
                "tests/support/paste_driver.py", "docs_tools/outputs.py", "docs_tools/warning_policy.py")
# Variables of the reader's environment left out of the key: the shell changes them from one
# command to the next, and PWD is the page's own empty folder (a new one in every run).
SHELL_STATE = ("PWD", "OLDPWD", "SHLVL", "_")
# Variables the blocks get but the key leaves out: where torch.compile keeps its kernels, which torch
# sets in a test process once it has compiled (torch/_inductor/runtime/cache_dir_utils.py), so that a
# worker that ran a compiling test first had other keys than one that did not, and its pages ran again.
# PATH and SHELL: whoever starts the run decides them (CI's shell has no SHELL and another PATH than
# a developer's), so keying on them ran every page again in CI right after a fresh clone had passed
# them on the same machine and commit. PATH starts with the reader venv's bin (the venv's key and its
# packages are in the context), which is where the blocks' python, pip and torchrun come from.
NOT_IN_THE_KEY = ("TORCHINDUCTOR_CACHE_DIR", "PATH", "SHELL")


@dataclass(frozen=True)
class RunContext:
    """Everything besides the page's blocks and downloads that decides whether a page passes."""

    wheel: str  # the hash of the files of the wheel the site offers (installed in the reader venv)
    venv: str  # the reader venv's key (constraints.txt, requirement lists, Python)
    packages: tuple[str, ...]  # what the reader venv holds (its *.dist-info), torch's version among them
    cpu: str  # cpu_class(): the CPU features that change what torch computes, and the cores
    env: tuple[tuple[str, str], ...]  # the environment the blocks run in, without SHELL_STATE
    runner: str  # the hash of RUNNER_FILES

    @property
    def torch(self) -> str:
        return next((p.removesuffix(".dist-info").split("-")[1] for p in self.packages if p.startswith("torch-")), "none")


def run_context(venv: ReaderVenv, wheel: Path, env: dict[str, str]) -> RunContext:
    site_packages = sorted(venv.path.glob("lib/python*/site-packages"))
    packages = tuple(sorted(d.name for sp in site_packages for d in sp.glob("*.dist-info")))
    runner = hashlib.sha256(b"".join((REPO / f).read_bytes() for f in RUNNER_FILES)).hexdigest()
    return RunContext(wheel=wheel_content(wheel), venv=venv.path.name, packages=packages, cpu=cpu_class(),
                      env=tuple(sorted((k, v) for k, v in env.items() if k not in SHELL_STATE + NOT_IN_THE_KEY)),
                      runner=runner)


def page_run_key(blocks: list[Block], files: dict[str, str], context: RunContext, timeout: int, shown: int) -> str:
    """The hash of everything a page's run depends on: the blocks as copied (with their expected
    outputs, tolerance rules, allowed stderr, skips, titles, timeouts), the files saved beside them,
    the warnings policy, the context and how many checked outputs the page shows."""
    allowed = [{"prefix": e.prefix, "category": e.category} for e in warning_policy.ALLOWED]
    payload = {"blocks": [asdict(b) for b in blocks], "files": files, "warnings": allowed,
               "context": asdict(context), "timeout": timeout, "shown": shown}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:32]


@dataclass
class PageCache:
    """The runs that passed, by :func:`page_run_key`, in ``<cache home>/copy-paste/`` (shared by the
    clones on the machine). A run that failed is not kept: it runs again every time."""

    root: Path = field(default_factory=lambda: cache_home() / "copy-paste")
    keep_days: int = 14

    def passed(self, key: str) -> bool:
        record = self.root / f"{key}.json"
        if not record.is_file():
            return False
        record.touch()  # last used
        return True

    def record_pass(self, key: str, info: dict) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        partial = self.root / f"{key}.{os.getpid()}.part"
        partial.write_text(json.dumps(info) + "\n", encoding="utf-8")
        os.replace(partial, self.root / f"{key}.json")

    def prune(self) -> None:
        """Forget the passes nobody looked up for ``keep_days`` days."""
        for record in self.root.glob("*.json"):
            with contextlib.suppress(OSError):
                if time.time() - record.stat().st_mtime > self.keep_days * 86400:
                    record.unlink()


def run_page(where: str, blocks: list[Block], files: dict[str, str], context: RunContext, env: dict[str, str],
             workdir: Path, timeout: int, python: str | Path | None, cache: PageCache | None, *, shown: int,
             runner: Callable[..., Outcome] = run_pasted) -> tuple[list[str], bool]:
    """(the problems, whether it ran): a page whose key passed before is not run again.

    ``env`` is the environment the blocks run in, ``context.env`` the same without SHELL_STATE;
    ``shown`` is how many checked outputs the page shows (paste_plan.outputs_on_page), each of
    which the run must compare unless its block is skipped.
    """
    if tuple(sorted((k, v) for k, v in env.items() if k not in SHELL_STATE + NOT_IN_THE_KEY)) != context.env:
        raise AssertionError("the page would run in another environment than the one its key names")
    key = page_run_key(blocks, files, context, timeout, shown)
    if cache is not None and cache.passed(key):
        return [], False
    outcome = runner(blocks, workdir, env, timeout, files, python=python)
    found, compared = judge(where, blocks, outcome)
    if not found:
        found = unchecked_outputs(where, blocks, compared, shown)
    if not found and cache is not None:
        cache.record_pass(key, {"page": where, "blocks": len(blocks), "torch": context.torch, "cpu": context.cpu,
                                "when": time.strftime("%Y-%m-%d %H:%M:%S")})
    return found, True


if __name__ == "__main__":  # what .ci/setup runs: the reader virtualenv, created once per machine
    from tests.support.reader_venv import ensure_reader_venv

    if sys.argv[1:] != ["ensure-reader-venv"]:
        sys.exit("usage: python -m tests.support.copy_paste ensure-reader-venv")
    print(f"reader virtualenv: {ensure_reader_venv()}")
