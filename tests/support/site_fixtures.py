"""Fixtures shared by the browser tests (tests/test_site*.py), registered in
tests/conftest.py: one site build, one server and one Chromium per worker; and the site
build cache they share with every other test run on the machine.

A session fixture must be defined once: imported into two test modules it would
start two Playwright instances in one process, which Playwright refuses.

**The site build cache** (README "What the caches key on"). ``mkdocs build`` of one config is
done once per hash of everything it reads (:func:`build_key`): the files of the checkout
(``git ls-files``: tracked, and new files git does not ignore: the pages, snippets, hooks,
configs, and the whole tree that the source archive packs), the versions of every
distribution the build's Python sees, the Python, the CPU class (notebook outputs and
figures are computed at build time), the Japanese font, the config, the output folder's
name and the build's environment, which is exactly what the build gets (:func:`build_env`:
the caller's environment without the variables listed in ``NOT_FOR_THE_BUILD``; a file
named by ``OFFLINE_EDITION`` counts by its content). The result is kept in
``${XDG_CACHE_HOME:-~/.cache}/pytorch-precision-guide/site/<key>/``, shared by the
clones on the machine; a build holds ``<key>.lock``, so concurrent test workers and clones
wait for one build instead of starting their own, and each caller gets its own copy of
the result (a test cannot change the cached site). A failed build is not kept: the next
run builds again (within one run, its failure is reported to every worker without a
second build).

The run starts the builds it needs in the background as soon as the tests are collected
(:func:`start_prebuild`, ``python -m tests.support.site_fixtures prebuild``): both languages
at once, then the offline edition's two, while the tests that need no site run; the
fixtures then wait for those builds (or find them already in the cache).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path
from urllib.parse import urlparse

import pytest

from docs_tools.docs_model import CONFIGS, REPO
from tests.support.shared_cache import cache_home, cpu_class, flock

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
OFFLINE_CONFIGS = {"ja": REPO / "mkdocs.offline.yml", "en": REPO / "mkdocs.en.offline.yml"}
# The address tests/test_site_deploy.py deploys to. The offline edition is built with it, as
# `SITE_URL=... bash .ci/build` builds it: the edition must not depend on it (the deploy test
# proves that it never mentions it), and the offline tests and the deploy test then share the
# same two builds instead of four.
DEPLOY_SITE_URL = "https://example.org/guide/"
OFFLINE_ENV = {"SITE_URL": DEPLOY_SITE_URL}
# Variables of the caller that the build does not get (so they are not part of its key), and why
# none of them can change what it builds: set by the test tools for their own use, by the shell,
# or overridden by the hooks (notebooks.py and figures.py set MPLBACKEND for what they run).
NOT_FOR_THE_BUILD = re.compile(
    r"^(PYTEST_\w+|PWD|OLDPWD|SHLVL|_|COLUMNS|LINES|TERM|COLORTERM|MPLBACKEND|PYTHONDONTWRITEBYTECODE"
    r"|PPG_RUN_DIR|SETUP_PREBUILD_SITE)$"
)
# Variables the build gets but its key leaves out: they say where a cache lives or silence a notice,
# and a process sets them for itself along the way, so that keying on them built the same site three
# times in one run (2026-11-28: .ci/setup's prebuild, pytest's, a worker's). Torch sets
# TORCHINDUCTOR_CACHE_DIR in a process that has compiled (torch/_inductor/runtime/cache_dir_utils.py);
# Material sets NO_MKDOCS_2_WARNING when imported (material/templates/__init__.py).
# PATH and SHELL come from whoever starts the run (CI's shell has no SHELL and another PATH than a
# developer's, and a clone's tools may sit on it), so keying on them kept CI from ever finding the
# builds of the fresh clone run just before it, on the same machine and commit. The build runs its
# Python as sys.executable (the key holds the Python and every installed distribution) and, from
# PATH, only git, to list the files whose content the key already holds; it starts no shell.
NOT_IN_THE_KEY = re.compile(r"^(TORCHINDUCTOR_CACHE_DIR|NO_MKDOCS_2_WARNING|PATH|SHELL)$")
FONT = Path("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")  # the Japanese figures' labels (.ci/setup)
KEEP_BUILDS = 16  # newest builds kept in the cache (a site build is about 15 MB)


def site_cache() -> Path:
    return cache_home() / "site"


def build_env(env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment a build gets: the caller's without ``SITE_URL``, ``OFFLINE_EDITION`` and
    ``NOT_FOR_THE_BUILD``, with ``env`` added."""
    base = {k: v for k, v in os.environ.items() if k not in DEPLOYMENT_ENV and not NOT_FOR_THE_BUILD.match(k)}
    return {**base, **(env or {})}


def repo_files(repo: Path = REPO) -> list[str]:
    """The checkout's files as the build sees them: tracked, and new files git does not ignore."""
    proc = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                          cwd=repo, capture_output=True, check=True)
    return sorted(n for n in set(proc.stdout.decode().split("\0")) if n and (repo / n).is_file())


def inputs_digest(repo: Path = REPO) -> str:
    """Everything any build of this checkout reads, but its config and environment."""
    digest = hashlib.sha256()
    for name in repo_files(repo):
        path = repo / name
        digest.update(f"{name}\0{os.access(path, os.X_OK)}\0".encode() + path.read_bytes() + b"\0")
    digest.update(json.dumps([installed(), sys.version, sys.platform, cpu_class(), FONT.is_file()]).encode())
    return digest.hexdigest()


def installed() -> list[str]:
    """``name==version`` of every distribution in the Python's site-packages folders (not of the
    folders a module puts on ``sys.path`` once imported, such as setuptools' vendored packages)."""
    sites = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]
    return sorted({f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions(path=sites)})


def build_key(config: Path, name: str, env: dict[str, str], inputs: str | None = None) -> str:
    """The cache key of ``mkdocs build -f config`` into a folder called ``name`` with ``env``."""
    digest = hashlib.sha256((inputs or inputs_digest()).encode())
    digest.update(f"{os.path.relpath(Path(config).resolve(), REPO)}\0{name}\0".encode())
    for key, value in sorted(env.items()):
        if NOT_IN_THE_KEY.match(key):
            continue
        if key == "OFFLINE_EDITION" and value.strip():  # the zip the build publishes: its content
            path = Path(value.strip())
            path = path if path.is_absolute() else REPO / path
            value = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else f"missing {value}"
        digest.update(f"{key}={value}\0".encode())
    return digest.hexdigest()[:24]


_run_dir: Path | None = None  # this test run's folder shared by its workers (built_site sets it)


def _proc(args, record: dict) -> subprocess.CompletedProcess:
    return subprocess.CompletedProcess(args, record["returncode"], record["stdout"], record["stderr"])


MKDOCS = [sys.executable, "-m", "mkdocs"]


def cached_build(config: Path, name: str, env: dict[str, str] | None = None, run_dir: Path | None = None,
                 mkdocs: list[str] | None = None) -> tuple[Path, subprocess.CompletedProcess]:
    """``mkdocs build --strict -f config`` into ``<cache>/<key>/root/<name>`` unless already there.

    Returns the entry and the build's process (returncode, output). While one process builds a
    key, the others wait for it (``<key>.lock``); a failure is kept only for this run
    (``run_dir``, so that every worker reports it without building again).
    """
    env = build_env(env)
    inputs = inputs_digest()
    key = build_key(config, name, env, inputs)
    cache = site_cache()
    entry, record_file = cache / key, cache / key / "build.json"
    args = [*(mkdocs or MKDOCS), "build", "--strict", "-f", str(config), "-d", str(entry / "root" / name)]
    run_dir = run_dir or _run_dir
    failed = run_dir / f"site-build-failed-{key}.json" if run_dir else None
    if not record_file.is_file():
        with flock(cache / f"{key}.lock"):
            if not record_file.is_file():
                if failed is not None and failed.is_file():
                    return entry, _proc(args, json.loads(failed.read_text(encoding="utf-8")))
                partial = cache / f"{key}.partial"
                shutil.rmtree(partial, ignore_errors=True)
                shutil.rmtree(entry, ignore_errors=True)
                args[-1] = str(partial / "root" / name)
                start = time.monotonic()
                proc = subprocess.run(args, cwd=REPO, capture_output=True, text=True, env=env, check=False)
                _log(f"{key} {Path(config).name} -> {name}: built in {time.monotonic() - start:.0f} s by pid "
                     f"{os.getpid()} ({'ok' if proc.returncode == 0 else 'failed'}) for {REPO}")
                record = {"returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr,
                          "config": str(config), "name": name, "built": time.time(), "inputs": inputs,
                          "env": {k: hashlib.sha256(v.encode()).hexdigest()[:12] for k, v in sorted(env.items())}}
                if proc.returncode == 0:
                    leaked = _paths_in(partial / "root", [f"{REPO}/", f"{partial}/"])
                    if leaked:
                        record.update(returncode=1, stderr=proc.stderr + "\nthe built site holds the path of the "
                                      f"checkout or of the build folder, so it depends on where it was built: {leaked[:5]}")
                if record["returncode"] == 0:
                    (partial / "build.json").write_text(json.dumps(record), encoding="utf-8")
                    os.replace(partial, entry)
                    _prune(cache, keep=entry)
                else:
                    shutil.rmtree(partial, ignore_errors=True)
                    if failed is not None:
                        failed.write_text(json.dumps(record), encoding="utf-8")
                    return entry, _proc(args, record)
    record_file.touch()  # last used: _prune keeps the newest
    return entry, _proc(args, json.loads(record_file.read_text(encoding="utf-8")))


def _log(line: str) -> None:
    """A line in ``<cache>/site/builds.log``: which build ran when, for how long, for which checkout."""
    with open(site_cache() / "builds.log", "a", encoding="utf-8") as log:
        log.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}\n")


def _paths_in(root: Path, needles: list[str]) -> list[str]:
    """Files under ``root`` whose text holds one of ``needles``."""
    found = []
    patterns = [n.encode() for n in needles]
    for path in root.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".xml", ".txt", ".json", ".js", ".css", ".py", ".ipynb"):
            data = path.read_bytes()
            found += [f"{path.relative_to(root)}: {n.decode()}" for n in patterns if n in data]
    return found


def _prune(cache: Path, keep: Path) -> None:
    """Keep the KEEP_BUILDS most recently used builds; an older one goes unless a build holds its lock."""
    entries = sorted((e for e in cache.iterdir() if (e / "build.json").is_file() and e != keep),
                     key=lambda e: (e / "build.json").stat().st_mtime, reverse=True)
    for old in entries[KEEP_BUILDS - 1:]:
        # (its lock file stays: removing a lock file another process may be waiting on breaks the lock)
        with contextlib.suppress(BlockingIOError), flock(cache / f"{old.name}.lock", fcntl.LOCK_EX | fcntl.LOCK_NB):
            shutil.rmtree(old, ignore_errors=True)


def _copy_out(entry: Path, name: str, out: Path) -> None:
    """The cached build at ``out``, as ``mkdocs build -d out`` would have left it: the site in
    ``out`` and the files the build writes beside it (root_pages.py) in its parent."""
    out = Path(out)
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(entry / "root" / name, out)
    for path in (entry / "root").iterdir():
        if path.is_file():
            shutil.copy2(path, out.parent / path.name)


def mkdocs_build(config, out, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``mkdocs build --strict -f config -d out``, as the site tests run it (output captured):
    without the caller's ``SITE_URL`` and ``OFFLINE_EDITION``, with ``env`` added; served from
    the site build cache when the same inputs were built before (:func:`cached_build`)."""
    out = Path(out)
    entry, proc = cached_build(Path(config), out.name, env)
    if proc.returncode == 0:
        with flock(entry.with_name(f"{entry.name}.lock"), fcntl.LOCK_SH):  # not pruned while copied
            _copy_out(entry, out.name, out)
    return proc


def build_all(builds: list[tuple[Path, Path, dict[str, str] | None]]) -> list[subprocess.CompletedProcess]:
    """Several :func:`mkdocs_build` at once (both languages build in parallel)."""
    with ThreadPoolExecutor(len(builds)) as pool:
        return list(pool.map(lambda b: mkdocs_build(*b), builds))


# -- the builds a run needs, started in the background as soon as it knows ----------------------

PREBUILDS = {  # fixture that needs them -> the (config, folder name, environment) of its builds, built together
    "built_site": [(CONFIGS[lang], lang, None) for lang in CONFIGS],
    "offline_site": [(OFFLINE_CONFIGS[lang], lang, OFFLINE_ENV) for lang in OFFLINE_CONFIGS],
}
_prebuild: subprocess.Popen | None = None


def start_prebuild(fixtures: set[str], run_dir: Path) -> None:
    """Start the builds the collected tests need (``PREBUILDS``), in the background, once per run."""
    global _prebuild
    wanted = [name for name in PREBUILDS if name in fixtures]
    if not wanted or _prebuild is not None:
        return
    _prebuild = subprocess.Popen(
        [sys.executable, "-m", "tests.support.site_fixtures", "prebuild", str(run_dir), *wanted],
        cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )


def stop_prebuild(interrupted: bool) -> None:
    """At the end of the run: wait for the background builds (another worker may wait for them),
    or stop them when the run was interrupted."""
    global _prebuild
    if _prebuild is None:
        return
    if interrupted and _prebuild.poll() is None:
        os.killpg(_prebuild.pid, signal.SIGTERM)
    _prebuild.wait()
    _prebuild = None


def _prebuild_main(run_dir: str, wanted: list[str]) -> int:
    for name in wanted:
        if name == "deployment":  # .ci/build with SITE_URL (tests/test_site_deploy.py): its four builds, cached
            from tests.test_site_deploy import run_ci_build

            with contextlib.suppress(AssertionError):  # a failure is the test's to report
                run_ci_build(Path(run_dir) / "deployment-prebuild" / "checkout")
            continue
        with ThreadPoolExecutor(len(PREBUILDS[name])) as pool:
            list(pool.map(lambda b: cached_build(b[0], b[1], b[2], Path(run_dir)), PREBUILDS[name]))
    return 0


def run_dir_of(tmp_path_factory, worker_id) -> Path:
    """The folder this test run's workers share (under xdist the parent of each worker's folder).

    Without xdist ("master") the parent is pytest's folder for *every* run: the run's own folder then.
    """
    base = tmp_path_factory.getbasetemp()
    return base.parent if worker_id != "master" else base


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id):
    """Both languages, built in parallel once per set of inputs (the site build cache), copied
    once per test run into a folder its workers share.

    The first worker to take the lock copies the site there (waiting for a build if one is under
    way); a failed build is recorded so that every worker reports it.
    """
    global _run_dir
    shared = run_dir_of(tmp_path_factory, worker_id)
    _run_dir = shared
    out, failure = shared / "site", shared / "site-build-failure.txt"
    with flock(shared / "site.lock"):
        if not (out / ".built").exists() and not failure.exists():
            procs = build_all([(config, out / lang, None) for lang, config in CONFIGS.items()])
            for lang, proc in zip(CONFIGS, procs):
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
        self._host = urlparse(base_url).netloc
        self.watch(self.page)
        self.context.on("page", self.watch)  # a page the context opens later (a link opened in a new tab)

    def watch(self, page) -> None:
        """Record what ``page`` logs as an error and every request it makes to another host."""
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        # ERR_ABORTED is a request cut short by navigating away (the root page's
        # redirect), not a missing file; missing files are caught by status below.
        page.on(
            "requestfailed",
            lambda r: "ERR_ABORTED" not in (r.failure or "") and self.errors.append(f"failed request: {r.url} {r.failure}"),
        )
        page.on("response", lambda r: r.status >= 400 and self.errors.append(f"HTTP {r.status}: {r.url}"))

        def on_request(request):
            url = urlparse(request.url)
            if url.scheme in ("http", "https", "ws", "wss") and url.netloc != self._host:
                self.foreign.append(request.url)

        page.on("request", on_request)

    def check_clean(self):
        assert not self.errors, "\n".join(self.errors)
        assert not self.foreign, "requests to other hosts:\n" + "\n".join(self.foreign)


@pytest.fixture
def watched(browser, base_url):
    w = Watched(browser, base_url)
    yield w
    w.context.close()


if __name__ == "__main__":
    if len(sys.argv) < 4 or sys.argv[1] != "prebuild":
        sys.exit("usage: python -m tests.support.site_fixtures prebuild RUN_DIR built_site|offline_site ...")
    sys.exit(_prebuild_main(sys.argv[2], sys.argv[3:]))
