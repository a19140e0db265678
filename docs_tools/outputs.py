"""Compare a real output with the output a page shows: text exactly, each number exactly unless a rule covers it.

The rule for printed numbers (README, "Printed numbers"):

* What a page shows is a real output, recorded on a named machine (``--update-outputs``).
* A reader's run must agree with it in everything that matters: text (words, dtypes, shapes,
  error messages) and numbers exactly. Only where one number really moves between CPUs, GPUs
  or torch versions does the snippet's sidecar (``name.test.toml``, see
  :mod:`docs_tools.snippets`) declare a tolerance **for that number**::

      [[tolerance]]
      line = '^Adam\\s'   # regex searched in each line of the shown output
      number = 3          # optional: the 3rd number of that line (1-based, integers counted too)
      abs = 0.01          # and/or rel: |real - shown| <= abs + rel * |shown|
      why = "observed: 0.962 (AMX), 0.964 (AVX-512), 0.965 (AVX2)"

  Without ``number`` the rule covers every number with a fraction or an exponent on the
  matching lines. Integers (counts, bytes, shapes, int8 codes, epochs) are always exact, a
  number no rule covers is exact, and the text of a covered line must still be identical
  (runs of spaces may differ, so that a column can get wider); a line no rule covers must be
  identical character for character.
* Better still, print at a precision that does not depend on the CPU (a loss to two
  decimals, not six), and keep rules for what really drifts.

A rule never hides a wrong result: a number outside it, a missing line or a changed word
fails the test, and :func:`unused_rules` reports a rule that covers nothing in the shown output.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["NUMBER", "Rule", "compare_outputs", "normalize_output", "numbers_of", "unused_rules"]

# A number that stands on its own: not the 16 of "float16" or the 8 of "e4m3fn8".
# A version such as 2.13.0 is text, not a number.
NUMBER = re.compile(r"(?<![\w.])((?>[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)(?!\.?\d))")


@dataclass(frozen=True)
class Rule:
    """How far some printed numbers may be from the shown ones: ``abs + rel * |shown|``.

    ``line`` is a regular expression searched in each line of the shown output; ``number``
    (1-based, counting every number on the line, integers included) narrows the rule to one
    number of such a line; ``why`` is the observed spread that justifies the bound.
    """

    line: str
    why: str
    abs: float = 0.0
    rel: float = 0.0
    number: int | None = None

    def __post_init__(self) -> None:
        re.compile(self.line)
        if not self.why.strip():
            raise ValueError(f"tolerance rule {self.line!r}: 'why' (the observed spread) is empty")
        if self.abs < 0 or self.rel < 0 or (self.abs == 0 and self.rel == 0):
            raise ValueError(f"tolerance rule {self.line!r}: give a positive 'abs' and/or 'rel'")
        if self.number is not None and (not isinstance(self.number, int) or self.number < 1):
            raise ValueError(f"tolerance rule {self.line!r}: 'number' is a 1-based position, got {self.number!r}")

    def covers(self, shown_line: str, position: int) -> bool:
        """Whether this rule applies to the ``position``-th (1-based) number of ``shown_line``."""
        return re.search(self.line, shown_line) is not None and self.number in (None, position)

    def allows(self, shown: float, real: float) -> bool:
        if math.isnan(shown) or math.isnan(real):
            return math.isnan(shown) and math.isnan(real)
        return abs(real - shown) <= self.abs + self.rel * abs(shown)

    def __str__(self) -> str:
        bound = " ".join(f"{k}={v:g}" for k, v in (("abs", self.abs), ("rel", self.rel)) if v)
        where = f"number {self.number} of " if self.number else ""
        return f"{bound} ({where}lines matching {self.line!r})"


def normalize_output(text: str, ignore_whitespace: bool = False) -> str:
    """Strip trailing spaces and surrounding blank lines (or, optionally, collapse all whitespace)."""
    if ignore_whitespace:
        return " ".join(text.split())
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def numbers_of(line: str) -> list[str]:
    """The numbers of a line as printed, in order (what ``Rule.number`` counts)."""
    return NUMBER.findall(line)


def _split(line: str) -> tuple[list[str], list[str]]:
    parts = NUMBER.split(line)
    texts = [" ".join(p.split()) if p.strip() else ("" if not p else " ") for p in parts[0::2]]
    return texts, parts[1::2]


def _is_integer(token: str) -> bool:
    return token.lstrip("+-").isdigit()


def _rule_for(rules: Sequence[Rule], line: str, position: int, token: str) -> Rule | None:
    if _is_integer(token):
        return None  # integers are exact, whatever a rule says
    return next((r for r in rules if r.covers(line, position)), None)


def compare_outputs(shown: str, real: str, rules: Iterable[Rule] = ()) -> str | None:
    """Return None if ``real`` agrees with ``shown``, else a message naming the first difference.

    Without rules the two normalized texts must be equal. With rules they must have the same
    lines; a line no rule matches must be identical, and on a line a rule matches the text
    between numbers must be identical and each number exact unless a rule covers it.
    """
    rules = list(rules)
    shown, real = normalize_output(shown), normalize_output(real)
    if shown == real:
        return None
    if not rules:
        return "the output differs (no [[tolerance]] rule declared: numbers must match exactly)"
    shown_lines, real_lines = shown.splitlines(), real.splitlines()
    if len(shown_lines) != len(real_lines):
        return f"{len(real_lines)} lines printed, {len(shown_lines)} shown"
    for lineno, (a, b) in enumerate(zip(shown_lines, real_lines), start=1):
        if a == b:
            continue
        context = f"\n  shown: {a}\n  real:  {b}"
        if not any(re.search(r.line, a) for r in rules):
            return f"line {lineno} differs and no [[tolerance]] rule names it (numbers are exact){context}"
        texts_a, nums_a = _split(a)
        texts_b, nums_b = _split(b)
        if texts_a != texts_b or len(nums_a) != len(nums_b):
            return f"line {lineno}: the text differs, not only its numbers{context}"
        for position, (x, y) in enumerate(zip(nums_a, nums_b), start=1):
            if x == y:
                continue
            rule = _rule_for(rules, a, position, x)
            if rule is None:
                kind = "integers are exact" if _is_integer(x) else "no [[tolerance]] rule covers it: exact"
                return f"line {lineno}: number {position}, {y}, differs from the shown {x} ({kind}){context}"
            if _is_integer(y) != _is_integer(x) and _is_integer(y):
                return f"line {lineno}: number {position}, {y}, is an integer where {x} is shown{context}"
            if not rule.allows(float(x), float(y)):
                return f"line {lineno}: number {position}, {y}, is not within {rule} of the shown {x}{context}"
    return None


def unused_rules(shown: str, rules: Iterable[Rule]) -> list[Rule]:
    """The rules that cover no number with a fraction or exponent in ``shown`` (a rule that covers nothing is a mistake)."""
    rules = list(rules)
    lines = normalize_output(shown).splitlines()
    used = set()
    for rule in rules:
        for line in lines:
            for position, token in enumerate(numbers_of(line), start=1):
                if not _is_integer(token) and rule.covers(line, position):
                    used.add(rule)
    return [r for r in rules if r not in used]
