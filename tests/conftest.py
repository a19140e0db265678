"""Shared test configuration: warnings policy, GPU/slow markers, output updates."""

from __future__ import annotations

import os

import pytest

from docs_tools import warning_policy

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
        from tests.support.copy_paste import skip_summary

        terminalreporter.write_sep("-", "blocks not run as a reader")
        terminalreporter.write_line(skip_summary(records))


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
    _schedule_site_build_first(items)


def _schedule_site_build_first(items) -> None:
    """Order the run so that the site build (about two minutes) overlaps other work.

    xdist hands out tests in collection order, the first ones one per worker in turn. With one
    test that needs the built site first and every other one after the tests that do not, one
    worker builds the site while the other runs the rest of the suite; before, the second worker
    reached a browser test early and waited out most of the build (92 s in a timed run).
    """
    needs_site = ["built_site" in getattr(item, "fixturenames", ()) for item in items]
    if not any(needs_site):
        return
    first = needs_site.index(True)
    order = {id(item): (0 if i == first else 2 if needs_site[i] else 1) for i, item in enumerate(items)}
    items.sort(key=lambda item: order[id(item)])  # stable: the order within each group is kept
