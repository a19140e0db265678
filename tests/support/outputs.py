"""Compare a real output with the output a page shows: text exactly, numbers to a declared tolerance.

The rule for printed numbers (README, "Printed numbers"):

* What a page shows is a real output, recorded on a named machine (``--update-outputs``).
* A reader's run must agree with it in everything that matters. Text (words, dtypes,
  shapes, error messages) must match exactly. Numbers must match exactly too, unless
  the snippet declares how far they may move on another CPU, GPU or torch version::

      # output-tolerance: rel=0.02 abs=1e-6

  Then every number with a fraction or an exponent (``0.125``, ``4e-07``) may differ
  from the shown one by at most ``abs + rel * |shown|``. Integers (counts, bytes,
  shapes, int8 codes, epochs) stay exact, and the text between numbers must still be
  identical (runs of spaces may differ, so that a column can get wider).
* Better still, print at a precision that does not depend on the CPU (a loss to
  two decimals, not six), and keep the tolerance for what really drifts.

A tolerance never hides a wrong result: a number outside it, a missing line or a
changed word fails the test (``.ci/prove-tests-fail`` checks that).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["Tolerance", "compare_outputs", "normalize_output", "parse_tolerance"]

# A number that stands on its own: not the 16 of "float16" or the 8 of "e4m3fn8".
# A version such as 2.13.0 is text, not a number.
NUMBER = re.compile(r"(?<![\w.])((?>[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)(?!\.?\d))")
TOLERANCE = re.compile(r"^(?:rel=(?P<rel>[0-9.eE+-]+))?\s*(?:abs=(?P<abs>[0-9.eE+-]+))?$")


@dataclass(frozen=True)
class Tolerance:
    """How far a printed number may be from the shown one: ``abs + rel * |shown|``."""

    rel: float = 0.0
    abs: float = 0.0

    def allows(self, shown: float, real: float) -> bool:
        if math.isnan(shown) or math.isnan(real):
            return math.isnan(shown) and math.isnan(real)
        return abs(real - shown) <= self.abs + self.rel * abs(shown)

    def __str__(self) -> str:
        return f"rel={self.rel:g} abs={self.abs:g}"


def parse_tolerance(value: str) -> Tolerance:
    """Parse the value of an ``# output-tolerance:`` header (``rel=0.02 abs=1e-6``, either part optional)."""
    m = TOLERANCE.match(value.strip())
    if not m or not (m.group("rel") or m.group("abs")):
        raise ValueError(f"output-tolerance must look like 'rel=0.02 abs=1e-6', got {value!r}")
    return Tolerance(float(m.group("rel") or 0.0), float(m.group("abs") or 0.0))


def normalize_output(text: str, ignore_whitespace: bool = False) -> str:
    """Strip trailing spaces and surrounding blank lines (or, optionally, collapse all whitespace)."""
    if ignore_whitespace:
        return " ".join(text.split())
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def _split(line: str) -> tuple[list[str], list[str]]:
    parts = NUMBER.split(line)
    texts = [" ".join(p.split()) if p.strip() else ("" if not p else " ") for p in parts[0::2]]
    return texts, parts[1::2]


def _is_integer(token: str) -> bool:
    return token.lstrip("+-").isdigit()


def compare_outputs(shown: str, real: str, tolerance: Tolerance | None = None) -> str | None:
    """Return None if ``real`` agrees with ``shown``, else a message naming the first difference.

    Without a tolerance the two normalized texts must be equal. With one, they must have the
    same lines and the same text between numbers, and each number must be within the tolerance.
    """
    shown, real = normalize_output(shown), normalize_output(real)
    if shown == real:
        return None
    if tolerance is None:
        return "the output differs (no output-tolerance declared: numbers must match exactly)"
    shown_lines, real_lines = shown.splitlines(), real.splitlines()
    if len(shown_lines) != len(real_lines):
        return f"{len(real_lines)} lines printed, {len(shown_lines)} shown"
    for number, (a, b) in enumerate(zip(shown_lines, real_lines), start=1):
        texts_a, nums_a = _split(a)
        texts_b, nums_b = _split(b)
        if texts_a != texts_b or len(nums_a) != len(nums_b):
            return f"line {number}: the text differs, not only its numbers\n  shown: {a}\n  real:  {b}"
        for x, y in zip(nums_a, nums_b):
            if _is_integer(x) and _is_integer(y):
                if int(x) != int(y):
                    return f"line {number}: the integer {y} differs from the shown {x} (integers are exact)\n  shown: {a}\n  real:  {b}"
                continue
            if not tolerance.allows(float(x), float(y)):
                return f"line {number}: {y} is not within {tolerance} of the shown {x}\n  shown: {a}\n  real:  {b}"
    return None
