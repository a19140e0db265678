"""Site tests that passed with exactly these inputs on this machine pass without running again.

A site test (marked ``site``, or using the built site, its server or Chromium) reads what the site
build reads, and Chromium and node besides. Its result is kept as a pass file per key in
``${XDG_CACHE_HOME:-~/.cache}/pytorch-precision-guide/passes/site-tests/`` (tests/support/shared_cache.py),
the key being the test's id and what it depends on (:func:`base_key`):

* the keys of both languages' site builds (tests/support/site_fixtures.py ``build_key``): every file
  ``git ls-files`` lists (the pages, hooks, configs, and the tests themselves with their support
  code), every installed distribution (Playwright among them), the Python, the CPU class, the
  Japanese font and the build's environment;
* the versions of Chromium and node (axe-core and textlint are pinned by package-lock.json, a listed
  file).

So any change to any listed file runs every site test again; a second run of the same commit on the
same machine (CI after a fresh clone has passed it) runs none of them, builds no site and starts no
Chromium. A failed, skipped or errored test is not kept. ``SITE_TESTS=rerun`` runs them all anyway.
README "What the caches key on"; checked by tests/test_caches.py.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess

import pytest

from tests.support.shared_cache import passed_before, record_pass

CHECK = "site-tests"
SITE_FIXTURES = frozenset({"built_site", "base_url", "browser", "watched", "offline_site"})
KEY = pytest.StashKey[str]()
KEPT = pytest.StashKey[bool]()
PHASES = pytest.StashKey[dict]()


def is_site_test(item) -> bool:
    return "site" in item.keywords or bool(SITE_FIXTURES & set(getattr(item, "fixturenames", ())))


def _version(command: str) -> str:
    path = shutil.which(command)
    if path is None:
        return f"{command}: none"
    proc = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60, check=False)
    return f"{command}: {proc.stdout.strip()} {proc.returncode}"


@functools.cache
def base_key() -> str:
    """What every site test depends on besides its own id (see the module docstring)."""
    from tests.support.site_fixtures import CONFIGS, build_env, build_key

    parts = [build_key(config, lang, build_env()) for lang, config in sorted(CONFIGS.items())]
    parts += [_version("chromium"), _version("node")]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def item_key(nodeid: str, base: str | None = None) -> str:
    return hashlib.sha256(f"{base or base_key()}\0{nodeid}".encode()).hexdigest()[:32]


def _pass(*args, **kwargs) -> None:
    return None


def keep_passes(items) -> None:
    """Give every site test its key; one that passed before with it passes without its fixtures
    (no site build, no server, no browser) and without running."""
    if os.environ.get("SITE_TESTS") == "rerun":
        return
    for item in items:
        if not is_site_test(item):
            continue
        key = item_key(item.nodeid)
        item.stash[KEY] = key
        if passed_before(CHECK, key):
            item.stash[KEPT] = True
            item.setup = _pass
            item.runtest = _pass


def kept(item) -> bool:
    return item.stash.get(KEPT, False)


def after_phase(item, report) -> None:
    """Record a site test that passed in all three phases (a fixture's teardown checks too)."""
    key = item.stash.get(KEY, None)
    if key is None:
        return
    if report.when == "call" and kept(item):
        report.user_properties.append(("site_test_kept", key))
    phases = item.stash.setdefault(PHASES, {})
    phases[report.when] = report.passed
    if report.when == "teardown" and not kept(item) and phases == {"setup": True, "call": True, "teardown": True}:
        record_pass(CHECK, key)
