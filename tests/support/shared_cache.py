"""What the caches shared by the clones on a machine have in common: where they live, their lock,
and the CPU class their results are kept for.

Used by the reader virtualenv (reader_venv.py), the copy-paste passes (copy_paste.py) and the site
build cache (site_fixtures.py); README "What the caches key on".
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import platform
from collections.abc import Iterator
from functools import cache
from pathlib import Path

CACHE_NAME = "pytorch-precision-guide"
# The CPU features that change what torch computes on a CPU (which kernels it dispatches to).
CPU_FLAGS = ("amx_tile", "amx_bf16", "amx_int8", "avx512_fp16", "avx512_bf16", "avx512_vnni", "avx512f", "avx2")


def cache_home() -> Path:
    """``${XDG_CACHE_HOME:-~/.cache}/pytorch-precision-guide``: what the clones on a machine share."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / CACHE_NAME


@cache
def cpu_class() -> str:
    """The machine, the CPU features of ``CPU_FLAGS`` it has and the cores this process may use:
    results computed on one CPU class are kept for that class only."""
    flags: set[str] = set()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{platform.machine()} {' '.join(f for f in CPU_FLAGS if f in flags)} cores={cores}"


@contextlib.contextmanager
def flock(path: Path, mode: int = fcntl.LOCK_EX) -> Iterator[int]:
    """Hold ``fcntl.flock(mode)`` on ``path`` (created if missing) for the ``with`` block: the locks
    of the caches shared by clones (reader virtualenv, copy-paste passes, site builds)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, mode)
        yield fd
    finally:
        os.close(fd)
