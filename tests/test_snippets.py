"""Every file in snippets/ stands alone; run as a plain script, it prints what the site shows.

Every snippet shown on a page already runs in test_copy_paste.py, pasted in page order into
one interpreter, its output checked the same way. So that the suite stays within its time
budget, running each snippet *alone* as a file here is opt-in (``--snippets-as-files``, and
always with ``--update-outputs`` or for a snippet no page shows); what a downloaded file would
trip over alone, a name defined only by an earlier block, is checked statically for every
snippet (``test_snippet_defines_what_it_uses``).

A snippet ``snippets/a/b.py`` may have ``snippets/a/b.out``: its stdout as recorded,
which pages include right under the code. Text must match exactly; numbers too, unless
the snippet declares ``# output-tolerance: rel=... abs=...`` (tests/support/outputs.py).
The header comments, and ``b.avx2.out`` (the output on CPUs without AVX-512), are described
in tests/support/snippets.py.

Run with ``--update-outputs`` to rewrite existing .out files from a real run
(to start checking a new snippet, create an empty .out next to it first).
"""

from __future__ import annotations

import builtins
import functools
import re
import subprocess
import symtable
import sys

import pytest

from tests.support.docs_model import REPO, SNIPPETS, markdown_pages
from tests.support.outputs import compare_outputs, normalize_output, parse_tolerance
from tests.support.snippets import expected_output_file, snippet_env, snippet_headers


def _params():
    params = []
    for path in sorted(SNIPPETS.rglob("*.py")):
        headers = snippet_headers(path)
        marks = [pytest.mark.cuda] if "cuda" in headers.get("requires", []) else []
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


def undefined_names(source: str, filename: str) -> list[str]:
    """Global names a script uses but never binds (imports, assignments, defs) and that are not builtins."""
    top = symtable.symtable(source, filename, "exec")
    bound = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported() or s.is_namespace()}
    used: set[str] = set()

    def walk(table):
        for sym in table.get_symbols():
            if sym.is_referenced() and (table is top or sym.is_global()):
                used.add(sym.get_name())
        for child in table.get_children():
            walk(child)

    walk(top)
    return sorted(n for n in used - bound if not hasattr(builtins, n) and n not in {"__file__", "__name__"})


@pytest.mark.parametrize("path", sorted(SNIPPETS.rglob("*.py")), ids=lambda p: str(p.relative_to(SNIPPETS)))
def test_snippet_defines_what_it_uses(path):
    missing = undefined_names(path.read_text(encoding="utf-8"), str(path))
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
    headers = snippet_headers(path)
    for module in headers.get("requires-module", []):
        pytest.importorskip(module)
    timeout = int(headers.get("timeout", ["300"])[0])
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
    tolerated = [re.compile(p) for p in headers.get("allow-stderr", [])]
    stderr = [ln for ln in proc.stderr.splitlines() if ln.strip() and not any(p.search(ln) for p in tolerated)]
    assert not stderr, f"{rel} wrote to stderr (a warning or log?):\n{proc.stderr}"
    for figure in headers.get("figure", []):
        assert (tmp_path / figure).is_file(), f"{rel} declares '# figure: {figure}' but did not save it"
    expected_file = expected_output_file(path)
    if request.config.getoption("--update-outputs"):
        if expected_file.exists():  # create an empty .out first to start checking a new snippet
            expected_file.write_text(normalize_output(proc.stdout) + "\n", encoding="utf-8")
        return
    if expected_file.exists():
        tolerance = headers.get("output-tolerance")
        problem = compare_outputs(
            expected_file.read_text(encoding="utf-8"), proc.stdout, parse_tolerance(tolerance[0]) if tolerance else None
        )
        assert problem is None, (
            f"{rel}: real output differs from {expected_file.relative_to(REPO)} (shown on the site): {problem}\n"
            f"--- shown\n{normalize_output(expected_file.read_text(encoding='utf-8'))}\n"
            f"--- real\n{normalize_output(proc.stdout)}\n"
            "(rerun with --update-outputs if the change is intended; see README 'Printed numbers')"
        )
