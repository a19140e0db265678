"""The reader's Python: the virtualenv the pages' blocks run in (:class:`ReaderVenv`).

The blocks do not run in the project's ``.venv`` (editable install, test tools, ``MPLBACKEND``) but
in a virtualenv that holds what a reader installs: the pinned torch, then the packages the pages
name (the project's dependencies and its ``examples`` extra, under constraints.txt), and the wheel
the built site offers (``site/<lang>/downloads/reference_impl-<version>-py3-none-any.whl``),
installed from the site at the start of each run. Building it takes minutes, so it is cached
outside the clone, in ``${XDG_CACHE_HOME:-~/.cache}/pytorch-precision-guide/reader-<key>``, the key
a hash of constraints.txt, those requirement lists and the Python version: every clone on the
machine shares it, ``.ci/setup`` creates it (``python -m tests.support.copy_paste
ensure-reader-venv``, which calls :func:`ensure_reader_venv`), and a change of any of them makes a
new one. The wheel is reinstalled only when its files differ from the installed ones; a run holds
a shared lock on the venv while it uses it, and a reinstall waits for the exclusive lock, so two
clones testing different sources at the same time take turns instead of swapping the package
under each other's feet.

The blocks run in an environment without the variables the pages never ask a reader to set
(:func:`reader_env`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.support.installer import ensure_uv, install_command
from tests.support.shared_cache import cache_home, flock

# Not from docs_tools.docs_model (the same values, checked by tests/test_caches.py): .ci/setup creates the
# reader venv with the machine's bare Python (`python3 -m tests.support.reader_venv`), in the background
# while it fills .venv, and that Python has neither yaml nor markdown-it.
REPO = Path(__file__).resolve().parents[2]
LANGS = ("ja", "en")

WHEEL_GLOB = "reference_impl-*-py3-none-any.whl"
# What a reader's shell does not have: set by the project's tools (.ci/test, pytest, its .venv),
# never by a page. A page that tells readers to set a variable gets it from the block itself.
# (NO_MKDOCS_2_WARNING: Material sets it in the test process when imported; a reader's shell has none.)
NOT_A_READERS = re.compile(r"^(PYTHON\w*|PYTEST_\w+|VIRTUAL_ENV|MPLBACKEND|MPLCONFIGDIR|DISPLAY|WAYLAND_DISPLAY"
                           r"|FIGURE_LANG|COV_\w+|PIP_\w+|NO_MKDOCS_2_WARNING)$")


def _requirement_name(req: str) -> str:
    return re.match(r"[A-Za-z0-9_.-]+", req).group(0).lower().replace("_", "-")


def reader_requirements() -> tuple[str, list[str]]:
    """(the torch pin, what the reader installs after it): the package's dependencies and its ``examples`` extra."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = re.findall(r"^torch==\S+", (REPO / "constraints.txt").read_text(encoding="utf-8"), re.M)
    if len(pins) != 1:
        raise AssertionError("constraints.txt must pin torch exactly once (torch==X.Y.Z)")
    rest = [r for r in project["dependencies"] + project["optional-dependencies"]["examples"]
            if _requirement_name(r) != "torch"]
    return pins[0], rest


def reader_venv_key() -> str:
    """Hash of what the reader venv is made of: constraints.txt, the requirement lists, the Python."""
    torch_pin, rest = reader_requirements()
    digest = hashlib.sha256()
    digest.update((REPO / "constraints.txt").read_bytes())
    digest.update(json.dumps([torch_pin, rest]).encode())
    digest.update(f"{sys.implementation.cache_tag} {platform.python_version()} {platform.machine()}".encode())
    return digest.hexdigest()[:16]


def reader_venv_path() -> Path:
    return cache_home() / f"reader-{reader_venv_key()}"


def _install_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}


def ensure_reader_venv(log: Callable[[str], None] = print) -> Path:
    """The cached reader venv, created first if needed (minutes, once per machine and key)."""
    venv = reader_venv_path()
    done = venv / ".complete"
    if done.is_file():
        done.touch()  # last used: _prune keeps recently used venvs
        return venv
    with flock(venv.with_name(venv.name + ".lock"), fcntl.LOCK_EX):
        if done.is_file():
            return venv
        if venv.exists():
            shutil.rmtree(venv)  # an interrupted creation
        torch_pin, rest = reader_requirements()
        start = time.monotonic()
        log(f"==> creating the reader virtualenv {venv} (torch, the examples' packages; once per machine)")
        # the files are copied by uv where it can be had (tests/support/installer.py), by pip otherwise
        pip = [*install_command(venv / "bin" / "python", ensure_uv(log)), "-c", str(REPO / "constraints.txt")]
        # torch first and pinned, as the install page says: an unpinned torch pulls the CUDA build
        for command in ([sys.executable, "-m", "venv", str(venv)], [*pip, torch_pin], [*pip, *rest]):
            proc = subprocess.run(command, capture_output=True, text=True, env=_install_env())
            if proc.returncode != 0:
                raise SystemExit(f"creating the reader virtualenv failed: {' '.join(command)}\n{proc.stdout}{proc.stderr}")
        done.write_text(json.dumps({"torch": torch_pin, "packages": rest, "python": platform.python_version()}) + "\n")
        log(f"==> reader virtualenv ready in {time.monotonic() - start:.0f} s")
    _prune(venv)
    return venv


def _prune(keep: Path, days: int = 14) -> None:
    """Remove other reader venvs (older constraints) nobody used for ``days`` days."""
    for other in keep.parent.glob("reader-*"):
        if other == keep or not other.is_dir():
            continue
        done = other / ".complete"
        if done.is_file() and time.time() - done.stat().st_mtime > days * 86400:
            with contextlib.suppress(BlockingIOError), flock(other / ".in-use", fcntl.LOCK_EX | fcntl.LOCK_NB):
                shutil.rmtree(other, ignore_errors=True)


def site_wheel(site: Path) -> Path:
    """The wheel the built site offers readers, the same in both languages."""
    found = {lang: sorted((site / lang / "downloads").glob(WHEEL_GLOB)) for lang in LANGS}
    for lang, wheels in found.items():
        if len(wheels) != 1:
            raise AssertionError(
                f"the built site offers {len(wheels)} wheels at {lang}/downloads/{WHEEL_GLOB} "
                f"({[w.name for w in wheels]}); readers install exactly one (docs/hooks/reader_package.py)"
            )
    wheels = [found[lang][0] for lang in LANGS]
    if len({w.name for w in wheels}) != 1 or len({wheel_content(w) for w in wheels}) != 1:
        raise AssertionError(f"the languages offer different wheels: {[str(w.relative_to(site)) for w in wheels]}")
    return wheels[0]


def wheel_content(wheel: Path) -> str:
    """A hash of the files in a wheel (its RECORD lists each file's hash), not of the zip's timestamps."""
    with zipfile.ZipFile(wheel) as z:
        record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
        return hashlib.sha256(z.read(record)).hexdigest()


@dataclass(frozen=True)
class ReaderVenv:
    """The reader venv with the site's wheel installed; hold :meth:`use` while running blocks in it."""

    path: Path

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    @contextlib.contextmanager
    def use(self, wheel: Path) -> Iterator[ReaderVenv]:
        """Install ``wheel`` unless the same files are installed, and keep it there while in use.

        Runs share the venv under a shared lock; a run that needs another wheel waits for the
        exclusive one (when no run uses the venv), installs, and goes on sharing.
        """
        want = wheel_content(wheel)
        stamp = self.path / ".reader-wheel"
        lock = self.path / ".in-use"
        with flock(lock, fcntl.LOCK_SH) as fd:
            if not (stamp.is_file() and stamp.read_text().strip() == want):
                fcntl.flock(fd, fcntl.LOCK_UN)
                fcntl.flock(fd, fcntl.LOCK_EX)
                if not (stamp.is_file() and stamp.read_text().strip() == want):
                    stamp.unlink(missing_ok=True)
                    proc = subprocess.run(
                        [str(self.python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)],
                        capture_output=True, text=True, env=_install_env(),
                    )
                    if proc.returncode != 0:
                        raise AssertionError(f"pip install {wheel.name} into {self.path} failed:\n{proc.stdout}{proc.stderr}")
                    stamp.write_text(want + "\n")
                fcntl.flock(fd, fcntl.LOCK_SH)
            yield self

    @cache
    def has_module(self, name: str) -> bool:
        code = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({name!r}) is None)"
        return subprocess.run([str(self.python), "-c", code], cwd=self.path, env=reader_env(self)).returncode == 0


def reader_env(venv: ReaderVenv) -> dict[str, str]:
    """A reader's shell with the venv activated: no variable of the project's tools, the venv's bin first on PATH."""
    env = {k: v for k, v in os.environ.items() if not NOT_A_READERS.match(k)}
    tools = Path(sys.executable).parent  # the project's .venv/bin
    path = [p for p in env.get("PATH", "").split(os.pathsep)
            if p and not same_place(p, tools) and not points_into(p, REPO)]
    env["PATH"] = os.pathsep.join([str(venv.path / "bin"), *path])
    env["VIRTUAL_ENV"] = str(venv.path)
    leaks = {k: v for k, v in env.items() if k not in ("PWD", "OLDPWD") and points_into(v, REPO)}
    if leaks:
        raise AssertionError(f"the reader's environment would point into the repository: {leaks}")
    return env


def points_into(value: str, root: Path) -> bool:
    """Whether ``value``, a path or a list of paths joined by ``os.pathsep``, names a path inside ``root``.

    A comparison of resolved paths, entry by entry, never of text: with the clone at ``/x/cold``,
    ``/x/cold-cache`` is outside it (a substring test said inside, and every copy-paste page
    errored). An entry that is no absolute path (a word, a number) names no place; in an option
    (``--opt=/x/cold/y``) the path after the last ``=`` counts.
    """
    root = root.resolve()
    return any(_path_inside(entry, root) for entry in value.split(os.pathsep))


def same_place(entry: str, place: Path) -> bool:
    """Whether ``entry``, an absolute path, names ``place`` (resolved paths: ``<place>/``, ``<place>/.``
    and a link to it count; a text that only starts like it does not)."""
    entry = os.path.expanduser(entry.strip())
    return os.path.isabs(entry) and Path(entry).resolve() == place.resolve()


def _path_inside(entry: str, root: Path) -> bool:
    candidates = {entry.strip(), entry.rpartition("=")[2].strip()}
    paths = [os.path.expanduser(c) for c in candidates if c]
    return any(os.path.isabs(p) and Path(p).resolve().is_relative_to(root) for p in paths)


if __name__ == "__main__":  # .ci/setup: `python3 -m tests.support.reader_venv` (any Python >= 3.11, no packages)
    ensure_reader_venv()
