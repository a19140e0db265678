"""The one place where warnings are allowed.

Every test, every doc block, every snippet script and every notebook runs with
warnings as errors. A warning may be ignored only if it is listed here, with
the reason. Entries are literal, case-insensitive message *prefixes* (the same
rule as Python's ``-W`` option) so that they can be handed to subprocesses
through ``PYTHONWARNINGS`` unchanged; a prefix may not contain a comma.

Never add "CUDA is not available" / "disabling" warnings from autocast or
GradScaler here: CUDA AMP code must fail on a CPU machine instead of silently
turning itself off.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass


@dataclass(frozen=True)
class AllowedWarning:
    category: str  # a built-in warning class name (importable without third-party packages)
    prefix: str  # literal start of the message, case-insensitive, no commas
    reason: str


ALLOWED: tuple[AllowedWarning, ...] = (
    # (empty: nothing needs an exception yet; add entries with a reason)
)


def _category(name: str) -> type[Warning]:
    import builtins

    category = getattr(builtins, name)
    assert issubclass(category, Warning), name
    return category


def install() -> None:
    """Make every warning an error, except those in :data:`ALLOWED` (call inside catch_warnings)."""
    warnings.simplefilter("error")
    for entry in ALLOWED:
        warnings.filterwarnings("ignore", re.escape(entry.prefix), _category(entry.category))


def pytest_filterwarnings_lines() -> list[str]:
    """The allow-list as pytest ``filterwarnings`` ini lines."""
    return [f"ignore:{re.escape(e.prefix)}:{e.category}" for e in ALLOWED]


def pythonwarnings_env() -> str:
    """The policy as a ``PYTHONWARNINGS`` value for subprocesses (and their children)."""
    for entry in ALLOWED:
        if "," in entry.prefix or ":" in entry.prefix:
            raise ValueError(f"allow-list prefix may not contain ',' or ':': {entry.prefix!r}")
    return ",".join(["error"] + [f"ignore:{e.prefix}:{e.category}" for e in ALLOWED])
