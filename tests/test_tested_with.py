"""``--record-tested-with`` writes docs/tested-with.json only after a whole run passed.

Under pytest-xdist each worker sees only its own tests; a worker whose tests all passed must not
record a run that failed on the other worker. These tests run a small pytest session with two
workers in a subprocess, with test files named like the required ones.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from docs_tools.docs_model import REPO


def _session(tmp_path, notebooks_pass: bool) -> tuple[subprocess.CompletedProcess, object]:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_copy_paste.py").write_text(
        "import pytest\n\n@pytest.mark.parametrize('n', range(4))\ndef test_page(n):\n    assert True\n"
    )
    (tests / "test_notebooks.py").write_text(
        textwrap.dedent(f"""
        import pytest

        @pytest.mark.parametrize('n', range(4))
        def test_notebook(n):
            assert {notebooks_pass!r} or n != 3
        """)
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    stamp = tmp_path / "tested-with.json"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.support.tested_with", "-n", "2",
         "--import-mode=importlib", "-q", "--record-tested-with", f"--tested-with-file={stamp}", "tests"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    return proc, stamp


def test_a_failure_on_one_worker_is_not_recorded(tmp_path):
    proc, stamp = _session(tmp_path, notebooks_pass=False)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert not stamp.exists(), f"a failed run recorded tested-with:\n{proc.stdout}"


def test_a_passing_run_is_recorded_once(tmp_path):
    proc, stamp = _session(tmp_path, notebooks_pass=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert stamp.exists(), proc.stdout
    assert proc.stdout.count("tested-with: recorded") == 1, proc.stdout


@pytest.mark.parametrize("required", ["tests/test_copy_paste.py", "tests/test_notebooks.py"])
def test_the_pages_code_is_required(required):
    from tests.support.tested_with import REQUIRED

    assert required in REQUIRED
