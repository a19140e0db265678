"""Record what the site's code was last tested with: ``docs/tested-with.json``.

``pytest --record-tested-with`` (e.g. ``bash .ci/test --record-tested-with``)
writes, when the whole run passes and it ran the pages' code (snippets, inline
blocks, notebooks: test_copy_paste.py and test_notebooks.py), the torch version, the device the code ran on and the date,
under the device kind ("cpu" or "cuda"), keeping the other kind's record. The
site build (docs/hooks/provenance.py) prints it on every page.

Under pytest-xdist only the controller decides: it receives every worker's reports, and its
exit status is the whole run's. A worker never writes (each sees only its own tests, so a
worker whose tests passed would record a run that failed elsewhere). The file is committed:
builds stay deterministic, and no number on the page is typed by hand.
"""

from __future__ import annotations

import datetime
import json
import platform

import pytest

from docs_tools.docs_model import REPO

STAMP = REPO / "docs" / "tested-with.json"
# The runs that execute the code readers see; all of them must have run and passed.
REQUIRED = ("tests/test_copy_paste.py", "tests/test_notebooks.py")


def pytest_addoption(parser):
    parser.addoption(
        "--record-tested-with",
        action="store_true",
        help="after a passing run of the pages' code, write docs/tested-with.json (torch version, device, date)",
    )
    parser.addoption("--tested-with-file", default=str(STAMP), help="where --record-tested-with writes (tests use a temporary file)")


class Recorder:
    def __init__(self, stamp=STAMP):
        self.stamp = stamp
        self.passed: dict[str, int] = {}
        self.failed = 0

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.failed += 1
        elif report.when == "call" and report.passed:
            path = report.nodeid.split("::")[0]
            self.passed[path] = self.passed.get(path, 0) + 1

    @pytest.hookimpl
    def pytest_sessionfinish(self, session, exitstatus):
        if exitstatus != 0 or self.failed:
            session.config.get_terminal_writer().line(f"tested-with: not recorded, the run failed (exit status {int(exitstatus)})")
            return
        missing = [p for p in REQUIRED if not self.passed.get(p)]
        if missing:
            session.config.get_terminal_writer().line(f"tested-with: not recorded, these did not run: {missing}")
            return
        record = current_record()
        stamp = json.loads(self.stamp.read_text(encoding="utf-8")) if self.stamp.exists() else {}
        stamp[record.pop("kind")] = record
        self.stamp.write_text(json.dumps(stamp, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        session.config.get_terminal_writer().line(f"tested-with: recorded {record} in {self.stamp}")


def current_record() -> dict:
    import torch

    cuda = torch.cuda.is_available()
    return {
        "kind": "cuda" if cuda else "cpu",
        "torch": torch.__version__.split("+")[0],
        "device": torch.cuda.get_device_name(0) if cuda else _cpu_name(),
        "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
    }


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:  # closed: an open file warns, and warnings are errors
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def pytest_configure(config):
    if hasattr(config, "workerinput"):  # an xdist worker: the controller decides for the whole run
        return
    if config.getoption("--record-tested-with", default=False):
        from pathlib import Path

        config.pluginmanager.register(Recorder(Path(config.getoption("--tested-with-file"))), "tested-with-recorder")
