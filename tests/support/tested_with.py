"""Record what the site's code was last tested with: ``docs/tested-with.json``.

``pytest --record-tested-with`` (e.g. ``bash .ci/test --record-tested-with``)
writes, when the whole run passes and it ran the pages' code, the torch version, the device the
code ran on and the date, under the machine's kind (`machine_kind`: "cpu" or "cuda"), keeping the
other kind's record. The pages' code is, on a CPU machine, the snippets, inline blocks and
notebooks (test_copy_paste.py and test_notebooks.py: `REQUIRED`); on a CUDA machine, which
builds no site, the CUDA page scripts (the ``cuda`` tests of test_snippets.py, run by
``bash .ci/gpu``: `REQUIRED_CUDA`). The site build (docs/hooks/provenance.py) prints it on
every page.

The CPU record is about the torch that constraints.txt pins (`pinned_torch`); a CUDA record is
about the GPU machine's own torch (2.11 on the machine lent so far).

Under pytest-xdist only the controller decides: it receives every worker's reports, and its
exit status is the whole run's. A worker never writes (each sees only its own tests, so a
worker whose tests passed would record a run that failed elsewhere). The file is committed:
builds stay deterministic, and no number on the page is typed by hand.
"""

from __future__ import annotations

import datetime
import json
import platform
import re

import pytest

from docs_tools.docs_model import REPO

STAMP = REPO / "docs" / "tested-with.json"
# The runs that execute the code readers see; all of them must have run and passed.
REQUIRED = ("tests/test_copy_paste.py", "tests/test_notebooks.py")
# On a CUDA machine (no site build, so no copy-paste test): the CUDA page scripts, i.e. the tests
# in these files that carry the ``cuda`` marker (tests/test_snippets.py marks them).
REQUIRED_CUDA = ("tests/test_snippets.py",)


def machine_kind() -> str:
    """``"cuda"`` where torch sees a CUDA GPU, else ``"cpu"``: the record a run writes and is compared with."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def pinned_torch() -> str:
    """The torch version constraints.txt pins (``torch==X.Y.Z``), which the CPU record is about."""
    pins = re.findall(r"^torch==(\S+)", (REPO / "constraints.txt").read_text(encoding="utf-8"), re.M)
    if len(pins) != 1:
        raise AssertionError("constraints.txt must pin torch exactly once (torch==X.Y.Z)")
    return pins[0]


def installed_torch() -> str:
    """This environment's torch version without the local part (``2.11.0+cu130`` -> ``2.11.0``)."""
    import torch

    return torch.__version__.split("+")[0]


def pytest_addoption(parser):
    parser.addoption(
        "--record-tested-with",
        action="store_true",
        help="after a passing run of the pages' code, write docs/tested-with.json (torch version, device, date)",
    )
    parser.addoption("--tested-with-file", default=str(STAMP), help="where --record-tested-with writes (tests use a temporary file)")
    parser.addoption(
        "--tested-with-kind", choices=("cpu", "cuda"), default=None,
        help="the record --record-tested-with writes (default: cuda where torch sees a GPU, else cpu; tests use it)",
    )


class Recorder:
    def __init__(self, stamp=STAMP, kind: str | None = None):
        self.stamp = stamp
        self.kind = kind or machine_kind()
        self.passed: dict[str, int] = {}
        self.failed = 0

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.failed += 1
        elif report.when == "call" and report.passed:
            if self.kind == "cuda" and "cuda" not in report.keywords:
                return  # on a CUDA machine only the CUDA tests count as the pages' code
            path = report.nodeid.split("::")[0]
            self.passed[path] = self.passed.get(path, 0) + 1

    @pytest.hookimpl
    def pytest_sessionfinish(self, session, exitstatus):
        if exitstatus != 0 or self.failed:
            session.config.get_terminal_writer().line(f"tested-with: not recorded, the run failed (exit status {int(exitstatus)})")
            return
        required = REQUIRED_CUDA if self.kind == "cuda" else REQUIRED
        missing = [p for p in required if not self.passed.get(p)]
        if missing:
            session.config.get_terminal_writer().line(f"tested-with: not recorded, these did not run: {missing}")
            return
        record = current_record()
        record["kind"] = self.kind
        stamp = json.loads(self.stamp.read_text(encoding="utf-8")) if self.stamp.exists() else {}
        stamp[record.pop("kind")] = record
        self.stamp.write_text(json.dumps(stamp, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        session.config.get_terminal_writer().line(f"tested-with: recorded {record} in {self.stamp}")


def current_record() -> dict:
    import torch

    cuda = machine_kind() == "cuda"
    return {
        "kind": "cuda" if cuda else "cpu",
        "torch": installed_torch(),
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

        kind = config.getoption("--tested-with-kind")
        config.pluginmanager.register(Recorder(Path(config.getoption("--tested-with-file")), kind), "tested-with-recorder")
