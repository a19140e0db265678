"""Fixtures shared by the browser tests (tests/test_site*.py), registered in
tests/conftest.py: one site build, one server and one Chromium per worker.

A session fixture must be defined once: imported into two test modules it would
start two Playwright instances in one process, which Playwright refuses.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from urllib.parse import urlparse

import pytest

from docs_tools.docs_model import CONFIGS, REPO

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# What a deployment sets (README "Deployment"); the tests' builds have neither unless they ask.
DEPLOYMENT_ENV = ("SITE_URL", "OFFLINE_EDITION")


def mkdocs_build(config, out, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``mkdocs build --strict -f config -d out``, as the site tests run it (output captured):
    without the caller's ``SITE_URL`` and ``OFFLINE_EDITION``, with ``env`` added."""
    base = {k: v for k, v in os.environ.items() if k not in DEPLOYMENT_ENV}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        check=False,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id):
    """Both languages built once per test run, even with several xdist workers.

    The first worker to take the lock builds into a folder all workers share;
    a failed build is recorded so that every worker reports it.
    """
    from filelock import FileLock

    # Under xdist, the parent of a worker's temporary folder belongs to this run and is shared by
    # its workers. Without xdist ("master") the parent is pytest's folder for *every* run, so a
    # site built by an earlier run would be served instead of this checkout's pages.
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if worker_id != "master" else base
    out, failure = shared / "site", shared / "site-build-failure.txt"
    with FileLock(str(shared / "site.lock")):
        if not (out / ".built").exists() and not failure.exists():
            for lang, config in CONFIGS.items():
                proc = mkdocs_build(config, out / lang)
                if proc.returncode != 0:
                    failure.write_text(f"mkdocs build --strict ({lang}) failed:\n{proc.stdout}\n{proc.stderr}")
                    break
            else:
                (out / ".built").touch()
    if failure.exists():
        pytest.fail(failure.read_text(), pytrace=False)
    return out


@pytest.fixture(scope="session")
def base_url(built_site):
    handler = functools.partial(QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium is not installed (.ci/setup installs it: apt-get install chromium)"
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Watched:
    """A page plus everything it logged and requested."""

    def __init__(self, browser, base_url, **context_options):
        self.context = browser.new_context(permissions=["clipboard-read", "clipboard-write"], **context_options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.foreign: list[str] = []
        host = urlparse(base_url).netloc
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        # ERR_ABORTED is a request cut short by navigating away (the root page's
        # redirect), not a missing file; missing files are caught by status below.
        self.page.on(
            "requestfailed",
            lambda r: "ERR_ABORTED" not in (r.failure or "") and self.errors.append(f"failed request: {r.url} {r.failure}"),
        )
        self.page.on("response", lambda r: r.status >= 400 and self.errors.append(f"HTTP {r.status}: {r.url}"))

        def on_request(request):
            url = urlparse(request.url)
            if url.scheme in ("http", "https", "ws", "wss") and url.netloc != host:
                self.foreign.append(request.url)

        self.page.on("request", on_request)

    def check_clean(self):
        assert not self.errors, "\n".join(self.errors)
        assert not self.foreign, "requests to other hosts:\n" + "\n".join(self.foreign)


@pytest.fixture
def watched(browser, base_url):
    w = Watched(browser, base_url)
    yield w
    w.context.close()
