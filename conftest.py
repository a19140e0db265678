"""Root conftest: only what must apply to README.md and ARCHITECTURE.md, whose blocks pytest-codeblocks runs.

pytest-codeblocks 0.18 reports a failed shell block with its exit status, an ``int``, as the
failure's text (``repr_failure`` returns the exception's first argument). pytest-xdist cannot
send such a report from a worker: the whole run stopped with an INTERNALERROR instead of naming
the block. The report's text becomes a sentence that says which block failed and how.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed and report.longrepr is not None and not isinstance(report.longrepr, (str, tuple)) \
            and not hasattr(report.longrepr, "toterminal"):
        report.longrepr = f"{item.nodeid}: the block failed (exit status {report.longrepr!r}); run it by hand to see why"
