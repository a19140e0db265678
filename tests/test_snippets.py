"""Every file in snippets/ stands alone; run as a plain script, it prints what the site shows.

Every snippet shown on a page already runs in test_copy_paste.py, pasted in page order into
one interpreter, its output checked the same way. So that the suite stays within its time
budget, running each snippet *alone* as a file here is opt-in (``--snippets-as-files``, and
always with ``--update-outputs`` or for a snippet no page shows); what a downloaded file would
trip over alone, a name defined only by an earlier block, is checked statically for every
snippet with ruff's undefined-name rule F821 (``test_snippet_defines_what_it_uses``).

A snippet ``snippets/a/b.py`` may have ``snippets/a/b.out``: its stdout as recorded,
which pages include right under the code. Text must match exactly; numbers too, unless
a ``[[tolerance]]`` rule in the snippet's sidecar ``b.test.toml`` covers that number
(docs_tools/outputs.py). The sidecar (how the tests run the snippet: requirements, timeout,
allowed stderr lines, figures; never in the code readers copy) is described in
docs_tools/snippets.py.

Run with ``--update-outputs`` to rewrite existing .out files from a real run
(to start checking a new snippet, create an empty .out next to it first). For a CUDA snippet it
also rewrites the sidecar's ``[recorded]`` table (the GPU, torch, CUDA and the date that the
pages show under the output), since that output was recorded on this machine.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from docs_tools import localize
from docs_tools.docs_model import REPO, SNIPPETS, markdown_pages
from docs_tools.outputs import compare_outputs, normalize_output, unused_rules
from docs_tools.snippets import (
    Recorded,
    current_environment,
    sidecar_path,
    sidecar_problems,
    skip_reason,
    snippet_env,
    snippet_meta,
    tolerance_rules,
    with_recorded,
)


def _params():
    params = []
    for path in sorted(SNIPPETS.rglob("*.py")):
        marks = [pytest.mark.cuda] if "cuda" in snippet_meta(path).requires else []
        params.append(pytest.param(path, id=str(path.relative_to(SNIPPETS)), marks=marks))
    return params


@functools.cache
def _shown_on_a_page() -> frozenset[str]:
    """Snippets that a page includes as a Python block (so test_copy_paste.py runs them)."""
    return frozenset(
        f.include
        for page in markdown_pages()
        for f in page.fences
        if f.include and f.include.endswith(".py") and (f.info == "python" or f.info.startswith("python "))
    )


def _ruff_undefined(target: Path) -> dict[str, list[str]]:
    """ruff's F821 (undefined name) over a file or folder: path -> the names it never defines."""
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "F821", "--no-cache", "--isolated",
         "--output-format", "json", "--exit-zero", str(target)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, f"ruff failed:\n{proc.stderr}"
    found: dict[str, list[str]] = {}
    for item in json.loads(proc.stdout):
        name = item["message"].split("`")[1] if "`" in item["message"] else item["message"]
        found.setdefault(str(Path(item["filename"]).resolve()), []).append(name)
    return found


@functools.cache
def _undefined_names() -> dict[str, list[str]]:
    """F821 over every snippet, once."""
    return _ruff_undefined(SNIPPETS)


def undefined_names(code: str, name: str) -> list[str]:
    """The names ``code`` (a file called ``name``) uses without defining or importing them."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text(code, encoding="utf-8")
        return sorted(set(_ruff_undefined(path).get(str(path.resolve()), [])))


@pytest.mark.parametrize("path", sorted(SNIPPETS.rglob("*.py")), ids=lambda p: str(p.relative_to(SNIPPETS)))
def test_snippet_defines_what_it_uses(path):
    missing = sorted(set(_undefined_names().get(str(path.resolve()), [])))
    assert not missing, (
        f"{path.relative_to(REPO)} uses {missing} without defining or importing them: it only works after "
        "an earlier block, but readers download and run it alone"
    )


@pytest.mark.parametrize("path", _params())
def test_snippet(path, tmp_path, request):
    rel_posix = path.relative_to(REPO).as_posix()
    as_files = request.config.getoption("--snippets-as-files") or request.config.getoption("--update-outputs")
    if not as_files and rel_posix in _shown_on_a_page():
        pytest.skip("runs pasted in page order in test_copy_paste.py; alone with --snippets-as-files")
    meta = snippet_meta(path)
    reason = skip_reason(meta)
    if reason:
        pytest.skip(reason)
    timeout = meta.timeout
    proc = subprocess.run(
        [sys.executable, str(path)],
        cwd=tmp_path,
        env=snippet_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    rel = path.relative_to(REPO)
    assert proc.returncode == 0, f"{rel} failed (exit {proc.returncode}):\n{proc.stderr}"
    stderr = [ln for ln in proc.stderr.splitlines() if not meta.stderr_allowed(ln)]
    assert not stderr, f"{rel} wrote to stderr (a warning or log?):\n{proc.stderr}"
    for figure in meta.figure:
        assert (tmp_path / figure).is_file(), f"{rel}: its sidecar declares figure {figure!r} but the script did not save it"
    expected_file = path.with_suffix(".out")
    if request.config.getoption("--update-outputs"):
        if expected_file.exists():  # create an empty .out first to start checking a new snippet
            expected_file.write_text(normalize_output(proc.stdout) + "\n", encoding="utf-8")
            if "cuda" in meta.requires:  # the page says where a GPU output was recorded: here, now
                _stamp(path)
        return
    if expected_file.exists():
        problem = compare_outputs(expected_file.read_text(encoding="utf-8"), proc.stdout, tolerance_rules(meta))
        assert problem is None, (
            f"{rel}: real output differs from {expected_file.relative_to(REPO)} (shown on the site): {problem}\n"
            f"--- shown\n{normalize_output(expected_file.read_text(encoding='utf-8'))}\n"
            f"--- real\n{normalize_output(proc.stdout)}\n"
            "(rerun with --update-outputs if the change is intended; see README 'Printed numbers')"
        )


def _stamp(path: Path) -> None:
    """Rewrite ``path``'s ``[recorded]`` table with this machine (its GPU, torch, CUDA, today)."""
    env = current_environment()
    sidecar = sidecar_path(path)
    recorded = Recorded(device=env["device"], torch=env["torch"], date=env["date"], cuda=env["cuda"])
    sidecar.write_text(with_recorded(sidecar.read_text(encoding="utf-8"), recorded), encoding="utf-8")


def test_sidecars_are_valid_and_harness_comments_stay_out_of_the_code():
    """Every ``name.test.toml`` parses (no unknown key, every allow-stderr/tolerance has its why)
    and sits next to its ``name.py``; no snippet still carries ``# requires:``-style comments."""
    problems = sidecar_problems()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "path", [p for p in sorted(SNIPPETS.rglob("*.py")) if snippet_meta(p).tolerance], ids=lambda p: str(p.relative_to(SNIPPETS))
)
def test_every_tolerance_rule_covers_a_shown_number(path):
    """A ``[[tolerance]]`` rule that covers nothing in the shown output (no number with a fraction for
    a bound, no number for a measurement, no line for a whole-line rule) is a mistake."""
    rules = list(snippet_meta(path).tolerance)  # every declared rule, wherever it applies
    outs = [p for p in (path.with_suffix(".out"),) if p.exists()]
    assert outs, f"{path.relative_to(REPO)} declares tolerance rules but has no .out"
    unused = [r for r in rules if all(r in unused_rules(p.read_text(encoding="utf-8"), rules) for p in outs)]
    assert not unused, f"{path.relative_to(REPO)}: rules that cover no shown number: {[str(r) for r in unused]}"


@pytest.mark.parametrize("path", sorted(SNIPPETS.rglob("*.py")), ids=lambda p: str(p.relative_to(SNIPPETS)))
def test_japanese_comments_are_complete_and_change_no_code(path):
    """The Japanese site shows each script with Japanese comments and docstrings from its
    ``<name>.ja.toml`` (docs_tools.localize): every comment and docstring has its Japanese text,
    no entry is left from an older version, and the Japanese script is the same program token
    for token (only comments and docstrings differ)."""
    found = localize.problems(path)
    assert not found, "\n".join(found) + "\n(python -m docs_tools.localize scaffold/check; see its docstring)"


def test_every_japanese_sidecar_has_its_script():
    orphans = [str(p.relative_to(REPO)) for p in SNIPPETS.rglob(f"*{localize.SUFFIX}")
               if not p.with_name(p.name.removesuffix(localize.SUFFIX) + ".py").is_file()]
    assert not orphans, f"Japanese sidecars without their script: {orphans}"
