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


def inputs_key(paths: tuple[str, ...], *extra: str, repo: Path | None = None) -> str:
    """The hash of what a check reads: the files below ``paths`` (tracked, and new files git does not
    ignore), the distributions installed for this Python, the Python, the CPU class and ``extra``."""
    import hashlib
    import subprocess
    import sys
    from importlib import metadata

    repo = repo or Path(__file__).resolve().parents[2]
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *paths],
                            cwd=repo, capture_output=True, check=True).stdout.decode().split("\0")
    digest = hashlib.sha256()
    for name in sorted(n for n in set(listed) if n and (repo / n).is_file()):
        digest.update(name.encode() + b"\0" + (repo / name).read_bytes() + b"\0")
    sites = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]
    installed = sorted({f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions(path=sites)})
    digest.update("\0".join([*installed, sys.version, cpu_class(), *extra]).encode())
    return digest.hexdigest()[:32]


def passed_before(check: str, key: str) -> bool:
    """Whether ``check`` passed with these inputs (``key``: :func:`inputs_key`) on this machine."""
    return (cache_home() / "passes" / check / key).is_file()


def record_pass(check: str, key: str) -> None:
    """Remember that ``check`` passed with these inputs (a file per pass, shared by the clones)."""
    folder = cache_home() / "passes" / check
    folder.mkdir(parents=True, exist_ok=True)
    (folder / key).touch()
