"""How the project's tools fill a virtualenv: uv's ``uv pip install`` where uv can be had, pip otherwise.

Used by ``.ci/setup`` (the shared virtualenv of the project's tools) and by
:func:`tests.support.reader_venv.ensure_reader_venv` (the reader's virtualenv). Standard library only:
both run it with the machine's bare Python.

Why uv: with nothing cached, pip took 82-89 s for each of the two virtualenvs (torch, transformers,
onnxruntime, … unpacked and compiled to bytecode; 2026-11-29, Xeon, 2 cores, both at once), about a
tenth of a cold run, and the site builds cannot start before the shared one exists. ``uv pip
install`` installs the same distributions from the same places (a ``pip freeze`` of the reader
virtualenv made both ways is identical) in 28 s with ``--compile-bytecode``, as pip compiles. The
virtualenvs themselves are still made by ``python -m venv``, with pip in them, as a reader's are:
what a reader gets is the same, only the tool that copies the files differs.

uv itself (a pinned release, :data:`UV`) is installed once per machine with pip into
``${XDG_CACHE_HOME:-~/.cache}/pytorch-precision-guide/uv-<version>``. Where that fails (no network,
no wheel for the platform) or ``PPG_INSTALLER=pip`` is set, pip installs as before.

pip's configuration decides where packages come from (``pip config list``: this machine's local
wheels in ``/opt/wheels``, extra indexes), and uv does not read it. :func:`uv_sources` hands uv the
same index, extra indexes and find-links, and ``--index-strategy unsafe-best-match`` makes uv choose
among them as pip does (the best version from any of them, not the first index that has the package).
Locations pip would skip (a ``file://`` folder that does not exist) are left out, as pip ignores them
with a warning.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

from tests.support.shared_cache import cache_home, flock

UV = "uv==0.13.9"  # pinned: the tool that copies the files, not something a page depends on


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}


def ensure_uv(log=print) -> Path | None:
    """uv's executable, installed once per machine; None where it cannot be installed (pip is used)."""
    if os.environ.get("PPG_INSTALLER") == "pip":
        return None
    home = cache_home() / f"uv-{UV.split('==')[1]}"
    exe = home / "bin" / "uv"
    done = home / ".complete"
    if done.is_file():
        return exe
    with flock(home.with_name(home.name + ".lock")):
        if done.is_file():
            return exe
        start = time.monotonic()
        for command in ([sys.executable, "-m", "venv", "--clear", str(home)],
                        [str(home / "bin" / "python"), "-m", "pip", "install", "-q", UV]):
            proc = subprocess.run(command, check=False, capture_output=True, text=True, env=_env())
            if proc.returncode != 0:
                log(f"==> uv could not be installed ({' '.join(command)}: {proc.stderr.strip()[-300:]}); pip installs instead")
                return None
        done.write_text(UV + "\n")
        log(f"==> uv installed in {time.monotonic() - start:.0f} s ({home})")
    return exe


def _pip_config() -> dict[str, str]:
    """pip's settings as ``pip config list`` prints them (files and ``PIP_*`` variables), by key."""
    proc = subprocess.run([sys.executable, "-m", "pip", "config", "list"], check=False, capture_output=True, text=True, env=_env())
    settings: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        m = re.match(r"^[^.]*\.([\w-]+)='(.*)'$", line.strip())
        if m:
            settings[m.group(1)] = m.group(2)  # later lines (the environment) win, as in pip
    return settings


def _usable(location: str) -> bool:
    """False for a ``file://`` URL or a path that does not exist (pip skips those with a warning)."""
    path = location.removeprefix("file://")
    if "://" in path:
        return True
    return Path(path).exists()


def uv_sources() -> list[str]:
    """uv's options for the places pip's configuration installs from."""
    config = _pip_config()
    options: list[str] = ["--index-strategy", "unsafe-best-match"]
    if config.get("index-url"):
        options += ["--index-url", config["index-url"]]
    for url in shlex.split(config.get("extra-index-url", "")):
        if _usable(url):
            options += ["--extra-index-url", url]
    for place in shlex.split(config.get("find-links", "")):
        if _usable(place):
            options += ["--find-links", place]
    return options


def install_command(python: Path | str, uv: Path | None) -> list[str]:
    """The command that installs into the virtualenv of ``python`` (append requirements and options)."""
    if uv is None:
        return [str(python), "-m", "pip", "install", "-q"]
    return [str(uv), "pip", "install", "-q", "--compile-bytecode", "--python", str(python), *uv_sources()]
