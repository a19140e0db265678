"""Shared test configuration: warnings policy, GPU/slow markers, output updates."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.support import warning_policy
from tests.support.docs_model import CONFIGS, REPO

os.environ.setdefault("MPLBACKEND", "Agg")


def pytest_addoption(parser):
    parser.addoption("--run-slow", action="store_true", help="also run tests marked slow (exhaustive checks)")
    parser.addoption(
        "--snippets-as-files",
        action="store_true",
        help="also run every snippet alone as a script (test_copy_paste.py already runs them pasted in page order)",
    )
    parser.addoption(
        "--update-outputs",
        action="store_true",
        help="rewrite snippets/**/*.out from a real run instead of comparing (review the diff!)",
    )


def pytest_configure(config):
    for line in warning_policy.pytest_filterwarnings_lines():
        config.addinivalue_line("filterwarnings", line)


def _cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def pytest_collection_modifyitems(config, items):
    has_cuda = _cuda_available()
    run_slow = config.getoption("--run-slow")
    for item in items:
        if "cuda" in item.keywords and not has_cuda:
            item.add_marker(pytest.mark.skip(reason="needs a CUDA GPU; none on this machine (runs on the GPU machine)"))
        if "slow" in item.keywords and not run_slow:
            item.add_marker(pytest.mark.skip(reason="slow opt-in check; run with --run-slow"))


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """Both languages built once per test run, even with several xdist workers.

    The first worker to take the lock builds into a folder all workers share;
    a failed build is recorded so that every worker reports it.
    """
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent
    out, failure = shared / "site", shared / "site-build-failure.txt"
    with FileLock(str(shared / "site.lock")):
        if not (out / ".built").exists() and not failure.exists():
            for lang, config in CONFIGS.items():
                proc = subprocess.run(
                    [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(out / lang)],
                    cwd=REPO,
                    capture_output=True,
                    text=True,
                )
                if proc.returncode != 0:
                    failure.write_text(f"mkdocs build --strict ({lang}) failed:\n{proc.stdout}\n{proc.stderr}")
                    break
            else:
                (out / ".built").touch()
    if failure.exists():
        pytest.fail(failure.read_text(), pytrace=False)
    return out
