"""Compare a real output with the output a page shows: text exactly, each number exactly unless a rule covers it.

The rule for printed numbers (README, "Printed numbers"):

* What a page shows is a real output, recorded on a named machine (``--update-outputs``).
* A reader's run must agree with it in everything that matters: text (words, dtypes, shapes,
  error messages) and numbers exactly. Only where one number really moves between CPUs, GPUs
  or torch versions does the snippet's sidecar (``name.test.toml``, see
  :mod:`docs_tools.snippets`) declare a rule **for that number** (or, for a line that depends
  on the GPU or the torch version, for that line)::

      [[tolerance]]
      line = '^Adam\\s'  # regex searched in each line of the shown output
      number = 3          # optional: the 3rd number of that line (1-based, integers counted too;
                          # -1 is the last number; a list such as [1, 2] names several)
      abs = 0.01          # and/or rel: |real - shown| <= abs + rel * |shown|
      why = "observed: 0.962 (AMX), 0.964 (AVX-512), 0.965 (AVX2)"

  Without ``number`` the rule covers every number with a fraction or an exponent on the
  matching lines. Integers (counts, bytes, shapes, int8 codes, epochs) are always exact, a
  number no rule covers is exact, and the text of a covered line must still be identical
  (runs of spaces may differ, so that a column can get wider); a line no rule covers must be
  identical character for character. A number printed with thousands separators (``29,716``)
  is one number.

* Instead of a bound, a rule may say why a value cannot be compared at all, with ``varies``
  (and no ``abs``/``rel``):

  - ``varies = "run"``: the covered numbers are measurements (a time, a rate, a memory
    high-water mark) that differ on every GPU and every run. Any value is accepted, integers
    included; the number must still be there, the text around it stays exact (only a time
    unit stuck to the number, ``us``/``ms``/``s``, may change with its size), and every
    number the rule does not cover stays exact.
  - ``varies = "cpu"``: the whole line depends on the kind of CPU (an error message that comes
    from oneDNN on a CPU with AVX512-FP16 and from ATen elsewhere). It applies on every machine:
    the shown and the printed line must both match the rule's ``line`` pattern, written to pin
    what each class prints (an alternation of the messages). The page says which class prints
    which, and every class's recorded output (``recorded/``, docs_tools/records.py) is checked
    against the pattern.
  - ``varies = "gpu"`` / ``varies = "torch"``: the whole line depends on the GPU or on the
    torch version (a device name, a behaviour that changed between releases). Such a rule
    applies only on a machine other than the one the output was recorded on (the sidecar's
    ``[recorded]`` table; :func:`docs_tools.snippets.tolerance_rules` leaves it out where the
    GPU, or torch's major.minor version, is the recorded one, so the line is exact there);
    where it applies, the printed line must match the rule's ``line`` pattern, so write the
    pattern to pin what every version prints.

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

__all__ = ["NUMBER", "Rule", "bound_excess", "compare_outputs", "deviations", "last_digit_unit", "normalize_output", "numbers_of", "unused_rules"]

# A number that stands on its own: not the 16 of "float16" or the 8 of "e4m3fn8".
# A version such as 2.13.0 is text, not a number; 29,716 (thousands separators) is one number.
NUMBER = re.compile(
    r"(?<![\w.])((?>[-+]?(?:\d{1,3}(?:,\d{3})+(?![,\d])(?:\.\d*)?|\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)(?!\.?\d))"
)
# A time unit stuck to a measured number ("108.909us", "3.316ms"): it changes with the number's size.
TIME_UNIT = re.compile(r"^(?:ns|us|µs|ms|s)(?![A-Za-z])")
VARIES = ("run", "gpu", "torch", "cpu")
VARIES_WHAT = {"gpu": "GPU", "torch": "torch version", "cpu": "kind of CPU"}


@dataclass(frozen=True)
class Rule:
    """How far some printed numbers may be from the shown ones: ``abs + rel * |shown|``, or why they cannot be compared.

    ``line`` is a regular expression searched in each line of the shown output; ``number``
    (1-based, counting every number on the line, integers included; negative counts from the
    end, -1 the last; a tuple names several) narrows the rule to those numbers of such a line;
    ``why`` is the observed spread, or the reason, that justifies the rule. ``varies`` replaces
    the bound (see the module docstring): ``"run"`` for a measurement, ``"gpu"``/``"torch"`` for
    a line that depends on the GPU or the torch version.
    """

    line: str
    why: str
    abs: float = 0.0
    rel: float = 0.0
    number: int | tuple[int, ...] | None = None
    varies: str | None = None
    spread: float | None = None  # the largest |printed - shown| observed (classes, versions, runs)

    def __post_init__(self) -> None:
        re.compile(self.line)
        if not self.why.strip():
            raise ValueError(f"tolerance rule {self.line!r}: 'why' (the observed spread) is empty")
        if isinstance(self.number, list):
            object.__setattr__(self, "number", tuple(self.number))
        positions = self.number if isinstance(self.number, tuple) else () if self.number is None else (self.number,)
        if isinstance(self.number, tuple) and not self.number:
            raise ValueError(f"tolerance rule {self.line!r}: 'number' is an empty list")
        for p in positions:
            if not isinstance(p, int) or isinstance(p, bool) or p == 0:
                raise ValueError(
                    f"tolerance rule {self.line!r}: 'number' is a 1-based position (negative from the end), got {self.number!r}"
                )
        if self.varies is None:
            if self.abs < 0 or self.rel < 0 or (self.abs == 0 and self.rel == 0):
                raise ValueError(f"tolerance rule {self.line!r}: give a positive 'abs' and/or 'rel' (or 'varies')")
            if self.spread is not None and (not isinstance(self.spread, (int, float)) or self.spread < 0):
                raise ValueError(f"tolerance rule {self.line!r}: 'spread' is the largest difference observed, >= 0")
            return
        if self.spread is not None:
            raise ValueError(f"tolerance rule {self.line!r}: varies = {self.varies!r} has no bound, so no 'spread'")
        if self.varies not in VARIES:
            raise ValueError(f"tolerance rule {self.line!r}: 'varies' is one of {list(VARIES)}, got {self.varies!r}")
        if self.abs or self.rel:
            raise ValueError(
                f"tolerance rule {self.line!r}: varies = {self.varies!r} accepts any value; a bound (abs/rel) would mean nothing"
            )
        if self.varies != "run" and self.number is not None:
            raise ValueError(f"tolerance rule {self.line!r}: varies = {self.varies!r} is about the whole line; drop 'number'")

    @property
    def measured(self) -> bool:
        """A measurement (``varies = "run"``): its numbers may take any value."""
        return self.varies == "run"

    @property
    def whole_line(self) -> bool:
        """A rule about the whole line (``varies = "gpu"``, ``"torch"`` or ``"cpu"``): only its pattern must match."""
        return self.varies in ("gpu", "torch", "cpu")

    def matches(self, shown_line: str) -> bool:
        return re.search(self.line, shown_line) is not None

    def covers(self, shown_line: str, position: int, count: int | None = None) -> bool:
        """Whether this rule applies to the ``position``-th (1-based) of the ``count`` numbers of ``shown_line``."""
        if self.whole_line or not self.matches(shown_line):
            return False
        if self.number is None:
            return True
        if count is None:
            count = len(numbers_of(shown_line))
        wanted = self.number if isinstance(self.number, tuple) else (self.number,)
        return any(position == (p if p > 0 else count + 1 + p) for p in wanted)

    def allows(self, shown: float, real: float) -> bool:
        if self.measured:
            return True
        if math.isnan(shown) or math.isnan(real):
            return math.isnan(shown) and math.isnan(real)
        # (a relative 1e-9 for the binary representation of decimals: 0.969 - 0.965 is 0.0040000000000000036)
        return abs(real - shown) <= (self.abs + self.rel * abs(shown)) * (1 + 1e-9) + 1e-15

    def __str__(self) -> str:
        if self.varies == "run":
            bound = "any value (a measurement)"
        elif self.whole_line:
            bound = f"the line depends on the {VARIES_WHAT[self.varies]}: only its pattern"
        else:
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
    return token.replace(",", "").lstrip("+-").isdigit()


def _value(token: str) -> float:
    return float(token.replace(",", ""))


def _rule_for(rules: Sequence[Rule], line: str, position: int, count: int, token: str) -> Rule | None:
    for rule in rules:
        if rule.covers(line, position, count) and (rule.measured or not _is_integer(token)):
            return rule  # integers are exact, except in a measurement
    return None


def _without_time_unit(text: str) -> str:
    return TIME_UNIT.sub("", text)


def compare_outputs(shown: str, real: str, rules: Iterable[Rule] = ()) -> str | None:
    """Return None if ``real`` agrees with ``shown``, else a message naming the first difference.

    Without rules the two normalized texts must be equal. With rules they must have the same
    lines; a line no rule matches must be identical; a line a whole-line rule (``varies = "gpu"``
    or ``"torch"``) matches must match that rule's pattern in the real output too; on a line
    another rule matches the text between numbers must be identical and each number exact unless
    a rule covers it.
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
        whole = [r for r in rules if r.whole_line and r.matches(a)]
        if whole:
            if not any(r.matches(b) for r in whole):
                return f"line {lineno} depends on the {VARIES_WHAT[whole[0].varies]} but does not match {whole[0].line!r}{context}"
            continue
        if not any(r.matches(a) for r in rules):
            return f"line {lineno} differs and no [[tolerance]] rule names it (numbers are exact){context}"
        texts_a, nums_a = _split(a)
        texts_b, nums_b = _split(b)
        if len(nums_a) != len(nums_b):
            return f"line {lineno}: the text differs, not only its numbers{context}"
        covering = [_rule_for(rules, a, p, len(nums_a), x) for p, x in enumerate(nums_a, start=1)]
        for i, rule in enumerate(covering, start=1):  # texts[i] follows number i
            if rule is not None and rule.measured:
                texts_a[i], texts_b[i] = _without_time_unit(texts_a[i]), _without_time_unit(texts_b[i])
        if texts_a != texts_b:
            return f"line {lineno}: the text differs, not only its numbers{context}"
        for position, (x, y, rule) in enumerate(zip(nums_a, nums_b, covering), start=1):
            if x == y:
                continue
            if rule is None:
                kind = "integers are exact" if _is_integer(x) else "no [[tolerance]] rule covers it: exact"
                return f"line {lineno}: number {position}, {y}, differs from the shown {x} ({kind}){context}"
            if not rule.measured and _is_integer(y) != _is_integer(x) and _is_integer(y):
                return f"line {lineno}: number {position}, {y}, is an integer where {x} is shown{context}"
            if not rule.allows(_value(x), _value(y)):
                return f"line {lineno}: number {position}, {y}, is not within {rule} of the shown {x}{context}"
    return None


def unused_rules(shown: str, rules: Iterable[Rule]) -> list[Rule]:
    """The rules that cover nothing in ``shown``: a bound that covers no number with a fraction or
    exponent, a measurement that covers no number, a whole-line rule whose pattern matches no line
    (a rule that covers nothing is a mistake)."""
    rules = list(rules)
    lines = normalize_output(shown).splitlines()
    used = set()
    for rule in rules:
        for line in lines:
            if rule.whole_line and rule.matches(line):
                used.add(rule)
            tokens = numbers_of(line)
            for position, token in enumerate(tokens, start=1):
                if (rule.measured or not _is_integer(token)) and rule.covers(line, position, len(tokens)):
                    used.add(rule)
    return [r for r in rules if r not in used]


def last_digit_unit(token: str) -> float:
    """One unit in the last printed place of a number: ``0.965`` -> 0.001, ``4e-07`` -> 1e-07, ``12`` -> 1."""
    mantissa, _, exponent = token.replace(",", "").lstrip("+-").lower().partition("e")
    decimals = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    return 10.0 ** (int(exponent or 0) - decimals)


def deviations(shown: str, real: str, rules: Iterable[Rule]) -> dict[Rule, float]:
    """For each bounded rule, the largest ``|real - shown|`` among the numbers it covers (0.0 where
    the two agree), comparing line by line where both outputs have the same lines and numbers; a
    rule whose lines do not line up is left out (compare_outputs reports those)."""
    rules = [r for r in rules if r.varies is None]
    found: dict[Rule, float] = {}
    shown_lines, real_lines = normalize_output(shown).splitlines(), normalize_output(real).splitlines()
    if len(shown_lines) != len(real_lines):
        return found
    for a, b in zip(shown_lines, real_lines):
        nums_a, nums_b = numbers_of(a), numbers_of(b)
        if len(nums_a) != len(nums_b):
            continue
        for position, (x, y) in enumerate(zip(nums_a, nums_b), start=1):
            rule = _rule_for(rules, a, position, len(nums_a), x)
            if rule is None:
                continue
            d = abs(_value(y) - _value(x)) if not (math.isnan(_value(x)) or math.isnan(_value(y))) else 0.0
            found[rule] = max(found.get(rule, 0.0), d)
    return found


def bound_excess(shown: str, rule: Rule) -> list[str]:
    """Where a bounded rule allows more than its ``spread`` justifies: for each number it covers in
    ``shown``, the bound ``abs + rel * |shown|`` may be at most twice the spread plus one unit in the
    last printed place (a value rounded the other way). Returns a description of each excess."""
    if rule.varies is not None or rule.spread is None:
        return []
    excess = []
    for line in normalize_output(shown).splitlines():
        tokens = numbers_of(line)
        for position, token in enumerate(tokens, start=1):
            if _is_integer(token) or not rule.covers(line, position, len(tokens)):
                continue
            bound = rule.abs + rule.rel * abs(_value(token))
            justified = 2 * rule.spread + last_digit_unit(token)
            if bound > justified * (1 + 1e-9):
                excess.append(f"{token} on {line.strip()!r}: bound {bound:g} > {justified:g} "
                              f"(2 x spread {rule.spread:g} + one unit {last_digit_unit(token):g})")
    return excess
