"""Every file in snippets/ runs as a plain script; the output the site shows for it is checked.

A snippet ``snippets/a/b.py`` may have ``snippets/a/b.out``: its stdout as recorded,
which pages include right under the code. Text must match exactly; numbers too, unless
the snippet declares ``# output-tolerance: rel=... abs=...`` (tests/support/outputs.py).
The header comments, and ``b.avx2.out`` (the output on CPUs without AVX-512), are described
in tests/support/snippets.py.

Run with ``--update-outputs`` to rewrite existing .out files from a real run
(to start checking a new snippet, create an empty .out next to it first).
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.support.docs_model import REPO, SNIPPETS
from tests.support.outputs import compare_outputs, normalize_output, parse_tolerance
from tests.support.snippets import expected_output_file, snippet_env, snippet_headers


def _params():
    params = []
    for path in sorted(SNIPPETS.rglob("*.py")):
        headers = snippet_headers(path)
        marks = [pytest.mark.cuda] if "cuda" in headers.get("requires", []) else []
        params.append(pytest.param(path, id=str(path.relative_to(SNIPPETS)), marks=marks))
    return params


@pytest.mark.parametrize("path", _params())
def test_snippet(path, tmp_path, request):
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
