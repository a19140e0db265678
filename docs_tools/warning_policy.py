"""The one place where warnings are allowed.

Every test, every doc block, every snippet script and every notebook runs with
warnings as errors. A warning may be ignored only if it is listed here, with
the reason. Entries are literal, case-insensitive message *prefixes* (the same
rule as Python's ``-W`` option) so that they can be handed to subprocesses
through ``PYTHONWARNINGS`` unchanged; a prefix may not contain a comma or a colon.

An entry is checked when this module is imported (so the tests, the site build and every
snippet run refuse a bad list before anything runs) and again whenever the list is applied
(:func:`validate`): its prefix must name one message (at least :data:`MIN_PREFIX_LETTERS`
letters and a code identifier: a dotted, underscored or CamelCase name, a call, a back-ticked or quoted
name, a name with digits; no surrounding spaces; an empty prefix would silence every warning of its
class, a prefix of plain words, acronyms or numbers the warnings of many APIs),
its category must be a built-in warning class, and its reason may not be empty.

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

#: The fewest letters a prefix may hold: fewer (or none: spaces, dots, ``*``) match warnings nobody read.
MIN_PREFIX_LETTERS = 10
#: What a prefix must hold to name one message: a code identifier, as the message spells it. A dotted
#: name (``torch.load``, ``nn.Module``; not ``e.g.`` or ``2.0``), an underscored one (``weights_only``,
#: ``_register``), a CamelCase one (``TypedStorage``, ``allowTF32``), a call (``load(``), a back-ticked
#: name or a quoted word (``'cuda'``), a name with digits (``TF32``, ``float16``, ``int8``). Not plain
#: words ("The default value of", "This overload is deprecated"), an all-caps acronym ("Please use the
#: new API": API, CPU, GPU start the messages of many APIs), a capitalised word or a bare number
#: ("removed in 2.0"): such a prefix silences warnings nobody read (independent review, 2026-11-29).
_NAMES_SOMETHING = re.compile(
    r"[A-Za-z_]\w*\.[A-Za-z_]\w"  # dotted
    r"|[A-Za-z0-9]_[A-Za-z0-9]|(?<!\w)_[A-Za-z]"  # underscored
    r"|[a-z][A-Z]"  # CamelCase
    r"|\w\("  # a call
    r"|`[^`\s]|(['\"])[^'\"\s]+\1"  # back-ticked code, a quoted word
    r"|[A-Za-z][0-9]"  # a name with digits
)
# what the module docstring rules out: autocast and GradScaler turning CUDA code off on a CPU machine
_NEVER = re.compile(r"cuda\b.*\b(not available|disabl)", re.I)


class PolicyError(ValueError):
    """An entry of the allow-list that would silence more than the one warning it names, or says no reason."""


def problems(entries: tuple[AllowedWarning, ...] | list[AllowedWarning]) -> list[str]:
    """What is wrong with each entry, as sentences that say what to write instead (empty: the list is fine)."""
    found: list[str] = []
    seen: set[tuple[str, str]] = set()
    for n, entry in enumerate(entries, 1):
        where = f"ALLOWED entry {n} ({entry.category}, {entry.prefix!r})"
        prefix, reason = entry.prefix if isinstance(entry.prefix, str) else "", entry.reason
        if not _is_warning_class(entry.category):
            found.append(f"{where}: {entry.category!r} is not a built-in warning class; "
                         "name one (UserWarning, DeprecationWarning, FutureWarning, ...)")
        letters = sum(c.isalpha() for c in prefix)
        if not prefix.strip():
            found.append(f"{where}: the message prefix is empty, which silences every {entry.category}; "
                         f"give the literal start of the one message to allow (at least {MIN_PREFIX_LETTERS} letters)")
        elif letters < MIN_PREFIX_LETTERS:
            found.append(f"{where}: the message prefix has {letters} letter(s), too few to name one message; "
                         f"give the literal start of the message, at least {MIN_PREFIX_LETTERS} letters "
                         "(prefixes are literal text: '.' and '*' are not wildcards)")
        elif not _NAMES_SOMETHING.search(prefix):
            found.append(f"{where}: the message prefix is plain words (acronyms and numbers included) that start "
                         "messages of many APIs; extend it up to the name the message is about, as the message spells it "
                         "(a function, argument, class or module: `torch.load`, weights_only, TypedStorage)")
        if prefix != prefix.strip():
            found.append(f"{where}: the message prefix starts or ends with a space; "
                         "drop it (a warning's message is matched from its first character)")
        if "," in prefix or ":" in prefix:
            found.append(f"{where}: the message prefix holds ',' or ':', which PYTHONWARNINGS and pytest's "
                         "filterwarnings split on; end the prefix before it")
        if _NEVER.search(prefix):
            found.append(f"{where}: CUDA code must fail on a machine without CUDA, not turn itself off; "
                         "remove the entry (see this module's docstring)")
        if not (isinstance(reason, str) and reason.strip()):
            found.append(f"{where}: the reason is empty; say why this warning cannot be fixed where it is raised")
        key = (entry.category, prefix.lower())
        if key in seen:
            found.append(f"{where}: listed twice; remove one")
        seen.add(key)
    return found


def validate(entries: tuple[AllowedWarning, ...] | list[AllowedWarning] | None = None) -> tuple[AllowedWarning, ...]:
    """Return ``entries`` (default :data:`ALLOWED`) or raise :class:`PolicyError` naming every bad entry and its fix."""
    entries = tuple(ALLOWED if entries is None else entries)
    found = problems(entries)
    if found:
        raise PolicyError("docs_tools/warning_policy.py: ALLOWED refuses these entries (fix or remove each):\n  "
                          + "\n  ".join(found))
    return entries


def _is_warning_class(name: str) -> bool:
    import builtins

    category = getattr(builtins, name, None) if isinstance(name, str) else None
    return isinstance(category, type) and issubclass(category, Warning)


def _category(name: str) -> type[Warning]:
    import builtins

    return getattr(builtins, name)


def install() -> None:
    """Make every warning an error, except those in :data:`ALLOWED` (call inside catch_warnings)."""
    entries = validate()
    warnings.simplefilter("error")
    for entry in entries:
        warnings.filterwarnings("ignore", re.escape(entry.prefix), _category(entry.category))


def pytest_filterwarnings_lines() -> list[str]:
    """The allow-list as pytest ``filterwarnings`` ini lines."""
    return [f"ignore:{re.escape(e.prefix)}:{e.category}" for e in validate()]


def pythonwarnings_env() -> str:
    """The policy as a ``PYTHONWARNINGS`` value for subprocesses (and their children)."""
    return ",".join(["error"] + [f"ignore:{e.prefix}:{e.category}" for e in validate()])


# Refuse a bad list on import: the tests, the site build and the snippet runs all import this module.
validate()
