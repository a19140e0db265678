"""Every file in snippets/ runs as a plain script; the output the site shows for it is checked.

A snippet ``snippets/a/b.py`` may have ``snippets/a/b.out``: its exact stdout,
which pages include right under the code. Header comments in the first lines:

* ``# requires: cuda`` -- needs a GPU (skipped with a reason on CPU machines);
* ``# requires-module: onnxruntime`` -- skipped with a reason if not importable;
* ``# timeout: 120`` -- seconds (default 300);
* ``# allow-stderr: <regex>`` -- stderr lines matching it are tolerated (say why in a
  comment next to it; e.g. a library's import-time notices). Anything else on stderr fails;
* ``# figure: name.svg`` -- the script saves that picture in its working folder; the site
  build runs it and publishes the picture at ``figures/<snippet folder>/name.svg``.

Run with ``--update-outputs`` to rewrite existing .out files from a real run
(to start checking a new snippet, create an empty .out next to it first).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.support import warning_policy
from tests.support.doc_runner import normalize_output
from tests.support.docs_model import REPO, SNIPPETS

HEADER = re.compile(r"^#\s*(?P<key>requires|requires-module|timeout|allow-stderr|figure):\s*(?P<value>.+?)\s*$")


def snippet_headers(path):
    headers: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines()[:15]:
        m = HEADER.match(line)
        if m:
            headers.setdefault(m.group("key"), []).append(m.group("value"))
    return headers


def _params():
    params = []
    for path in sorted(SNIPPETS.rglob("*.py")):
        headers = snippet_headers(path)
        marks = [pytest.mark.cuda] if "cuda" in headers.get("requires", []) else []
        params.append(pytest.param(path, id=str(path.relative_to(SNIPPETS)), marks=marks))
    return params


def snippet_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(PYTHONWARNINGS=warning_policy.pythonwarnings_env(), MPLBACKEND="Agg", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


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
    expected_file = path.with_suffix(".out")
    if request.config.getoption("--update-outputs"):
        if expected_file.exists():  # create an empty .out first to start checking a new snippet
            expected_file.write_text(normalize_output(proc.stdout) + "\n", encoding="utf-8")
        return
    if expected_file.exists():
        expected = normalize_output(expected_file.read_text(encoding="utf-8"))
        actual = normalize_output(proc.stdout)
        assert actual == expected, (
            f"{rel}: real output differs from {expected_file.relative_to(REPO)} (shown on the site).\n"
            f"--- shown\n{expected}\n--- real\n{actual}\n(rerun with --update-outputs if the change is intended)"
        )
