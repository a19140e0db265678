"""Shared test configuration: warnings policy, GPU/slow markers, output updates."""

from __future__ import annotations

import os

import pytest

from docs_tools import warning_policy
from tests.support import site_passes

pytest_plugins = [
    "tests.support.tested_with",  # --record-tested-with (docs/tested-with.json)
    "tests.support.site_fixtures",  # built_site, base_url, browser, watched: the browser tests' shared fixtures
]

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


def pytest_terminal_summary(terminalreporter, config):
    """The blocks test_copy_paste.py did not run in the reader venv (CUDA, optional packages), with counts."""
    import json

    records = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            for name, value in getattr(report, "user_properties", ()):
                if name == "copy_paste_skipped" and getattr(report, "when", "") == "call":
                    records += json.loads(value)
    if records:
        from tests.support.paste_plan import skip_summary

        terminalreporter.write_sep("-", "blocks not run as a reader")
        terminalreporter.write_line(skip_summary(records))
    kept = {report.nodeid for report in terminalreporter.stats.get("passed", ())
            if any(name == "site_test_kept" for name, _ in getattr(report, "user_properties", ()))}
    if kept:
        terminalreporter.write_sep("-", "site tests kept")
        terminalreporter.write_line(
            f"{len(kept)} site tests passed before on this machine with exactly these inputs (every listed file, "
            "the installed packages, Chromium, node: tests/support/site_passes.py) and were not run again; "
            "SITE_TESTS=rerun runs them")


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
    if not config.option.collectonly:
        site_passes.keep_passes(items)  # site tests that passed with these exact inputs: not run again
    _schedule_site_tests_last(items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    site_passes.after_phase(item, outcome.get_result())


def _schedule_site_tests_last(items) -> None:
    """Order the run so that the site builds overlap the tests that need no site.

    The builds start in the background as soon as the tests are collected (pytest_collection_finish);
    xdist hands out tests in collection order, so both workers run the rest of the suite while
    the site is built, and reach the site tests when it is (or nearly) ready.
    """
    needs_site = {id(item) for item in items if "built_site" in getattr(item, "fixturenames", ())}
    items.sort(key=lambda item: id(item) in needs_site)  # stable: the order within each group is kept


def pytest_collection_finish(session):
    """One process per run (the first xdist worker, or pytest itself without xdist) starts the
    site builds the selected tests need (tests/support/site_fixtures.py, the site build cache)."""
    config = session.config
    _notebooks_run_pasted(session.items)
    if os.environ.get("PYTEST_XDIST_WORKER", "gw0") != "gw0" or config.option.collectonly:
        return
    from tests.support.site_fixtures import start_prebuild

    fixtures = {name for item in session.items if not site_passes.kept(item) for name in getattr(item, "fixturenames", ())}
    factory = getattr(config, "_tmp_path_factory", None)  # pytest's tmp_path_factory, as its fixture gets it
    if factory is not None:
        base = factory.getbasetemp()
        start_prebuild(fixtures, base.parent if "PYTEST_XDIST_WORKER" in os.environ else base)


def _notebooks_run_pasted(items) -> None:
    """A notebook whose page the copy-paste test runs in this run is not also executed by
    tests/test_notebooks.py: pasted cell by cell into the reader's Python, with warnings as errors and
    no stderr allowed, it checks all that test checks and the outputs besides (34 CPU-seconds of a
    cold run). A narrowed run without the copy-paste test (``tests/test_notebooks.py``, the CI
    mutation "failing notebook cell", ``-m "not site"`` on the GPU machine) still executes them.
    Called once the selection is final (after ``-k``/``-m``), on every worker."""
    pasted = {item.callspec.params["rel"] for item in items
              if item.nodeid.startswith("tests/test_copy_paste.py::test_page_pastes_cleanly[") and hasattr(item, "callspec")}
    for item in items:
        if item.nodeid.startswith("tests/test_notebooks.py::test_notebook_executes[") and item.callspec.params["rel"] in pasted:
            item.add_marker(pytest.mark.skip(
                reason="runs in this run's tests/test_copy_paste.py, pasted into the reader's Python (warnings as errors)"))


def pytest_sessionfinish(session, exitstatus):
    from tests.support.site_fixtures import stop_prebuild

    stop_prebuild(interrupted=exitstatus == pytest.ExitCode.INTERRUPTED)
