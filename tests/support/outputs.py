"""Moved to :mod:`docs_tools.outputs` (per-number ``[[tolerance]]`` rules); kept so that old imports work.

``Tolerance``/``parse_tolerance`` are the old one-bound-per-snippet interface: a ``Tolerance``
passed to :func:`compare_outputs` is a rule covering every number of every line. New code
passes ``docs_tools.snippets.tolerance_rules(snippet_meta(path))`` instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from docs_tools import outputs as _outputs
from docs_tools.outputs import NUMBER, Rule, normalize_output, numbers_of, unused_rules  # noqa: F401

TOLERANCE = re.compile(r"^(?:rel=(?P<rel>[0-9.eE+-]+))?\s*(?:abs=(?P<abs>[0-9.eE+-]+))?$")


@dataclass(frozen=True)
class Tolerance:
    """Deprecated: one bound for every number of an output (use ``[[tolerance]]`` rules)."""

    rel: float = 0.0
    abs: float = 0.0

    def rules(self) -> list[Rule]:
        return [Rule(line="", why="old per-snippet output-tolerance", abs=self.abs, rel=self.rel)]

    def __str__(self) -> str:
        return f"rel={self.rel:g} abs={self.abs:g}"


def parse_tolerance(value: str) -> Tolerance:
    """Deprecated: parse ``rel=0.02 abs=1e-6``."""
    m = TOLERANCE.match(value.strip())
    if not m or not (m.group("rel") or m.group("abs")):
        raise ValueError(f"output-tolerance must look like 'rel=0.02 abs=1e-6', got {value!r}")
    return Tolerance(float(m.group("rel") or 0.0), float(m.group("abs") or 0.0))


def compare_outputs(shown: str, real: str, rules: Iterable[Rule] | Tolerance | None = None) -> str | None:
    """:func:`docs_tools.outputs.compare_outputs`, also accepting None or an old ``Tolerance``."""
    if rules is None:
        rules = ()
    elif isinstance(rules, Tolerance):
        rules = rules.rules()
    return _outputs.compare_outputs(shown, real, rules)
