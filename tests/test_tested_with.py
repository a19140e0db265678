"""``--record-tested-with`` writes docs/tested-with.json only after a whole run passed.

On a CUDA machine it writes the "cuda" record, after the CUDA page scripts passed; the tests
simulate that machine on a CPU with ``--tested-with-kind=cuda``.

Under pytest-xdist each worker sees only its own tests; a worker whose tests all passed must not
record a run that failed on the other worker. These tests run a small pytest session with two
workers in a subprocess, with test files named like the required ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from docs_tools.docs_model import REPO


def _session(tmp_path, notebooks_pass: bool) -> tuple[subprocess.CompletedProcess, object]:
    tests = tmp_path / "tests"
    tests.mkdir()
    # --dist each: both workers run every test; one test fails on worker gw1 only. Worker gw0 then
    # ran both required files and passed all of them: a worker deciding on its own would record,
    # though the whole run failed. (Load-balanced distribution left it to chance whether one
    # worker saw both files and no failure, so the check was flaky.)
    (tests / "test_copy_paste.py").write_text(
        "import pytest\n\n@pytest.mark.parametrize('n', range(4))\ndef test_page(n):\n    assert True\n"
    )
    (tests / "test_notebooks.py").write_text(
        textwrap.dedent(f"""
        import os

        import pytest

        @pytest.mark.parametrize('n', range(4))
        def test_notebook(n):
            assert {notebooks_pass!r} or n != 3 or os.environ.get("PYTEST_XDIST_WORKER") != "gw1"
        """)
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    stamp = tmp_path / "tested-with.json"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.support.tested_with", "-n", "2",
         "--dist", "each", "--import-mode=importlib", "-q", "--record-tested-with", f"--tested-with-file={stamp}", "tests"],
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


def _cuda_session(tmp_path, snippet_test: str, kind: str = "cuda") -> tuple[subprocess.CompletedProcess, object]:
    """A session as `bash .ci/gpu` runs it (-m cuda), recording under ``kind`` into a stamp that
    already holds a CPU record."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_snippets.py").write_text(snippet_test)
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    cuda: needs a CUDA GPU\n")
    stamp = tmp_path / "tested-with.json"
    cpu = {"date": "2026-11-23", "device": "AMD EPYC", "torch": "2.13.0"}
    stamp.write_text(json.dumps({"cpu": cpu}))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.support.tested_with", "-p", "no:xdist",
         "--import-mode=importlib", "-q", "--record-tested-with", f"--tested-with-file={stamp}",
         f"--tested-with-kind={kind}", "tests"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    return proc, stamp


CUDA_SCRIPT_TEST = """
import pytest

@pytest.mark.cuda
def test_cuda_page_script():
    assert True
"""


def test_a_cuda_machine_records_its_cuda_page_scripts_under_cuda(tmp_path):
    """On a CUDA machine the pages' code is the CUDA page scripts (no site, no copy-paste test):
    their passing run writes the "cuda" record and keeps the CPU one."""
    proc, stamp = _cuda_session(tmp_path, CUDA_SCRIPT_TEST)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    records = json.loads(stamp.read_text())
    assert set(records) == {"cpu", "cuda"}, records
    assert records["cpu"]["torch"] == "2.13.0"
    assert set(records["cuda"]) == {"torch", "device", "date"}, records


def test_a_cuda_machine_without_cuda_page_scripts_records_nothing(tmp_path):
    """Tests without the cuda marker are not the CUDA pages' code: nothing is recorded."""
    proc, stamp = _cuda_session(tmp_path, CUDA_SCRIPT_TEST.replace("@pytest.mark.cuda\n", ""))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "these did not run: ['tests/test_snippets.py']" in proc.stdout, proc.stdout
    assert set(json.loads(stamp.read_text())) == {"cpu"}


def test_the_cuda_page_scripts_are_required_on_a_cuda_machine():
    from tests.support.tested_with import REQUIRED_CUDA

    assert REQUIRED_CUDA == ("tests/test_snippets.py",)
