"""Does every row of a results table say what its own times say? (tests/test_result_rows.py, test_bench.py)

A timed row prints the median time of the baseline and of the variant over the rounds, a verdict
("4.30x faster", 「4.30 倍速い」, "no clear difference (0.98x)") made from the median of the
per-round ratios ``baseline / variant``, and the spread (largest / smallest per-round ratio).

Two facts tie them together, whatever the noise:

* if every round's ratio lies in [lo, hi], then b_i <= hi * v_i in every round, so the median of
  the b_i is at most hi times the median of the v_i (order statistics keep a pointwise inequality),
  and likewise at least lo times it: the ratio of the two printed times lies in [lo, hi] like the
  median ratio, so the two differ by at most the spread (hi / lo);
* "faster" (the median ratio >= 1 and the rounds agree: every ratio >= 1) means every baseline
  round took at least as long as its variant round, so the baseline's median time is at least the
  variant's; "slower" the other way round; "no clear difference" means the rounds disagree
  (lo < 1 < hi), so the spread exceeds the ratio and its inverse.

The checks read the cells as a reader sees them (each cell rendered as the table renders it, in
English and in Japanese) and allow for the rounding of what is printed: three significant digits
of a time, two decimals of a ratio or a spread. The comparisons stored beside the rows (per-round
ratios) are checked too: the median, the spread and the verdict recomputed from the rounds.
The GPU matmul table's derived figures follow the same idea: the timers' agreement is the ratio of
its two printed times, TFLOP/s is 2 n^3 over the printed time.
"""

from __future__ import annotations

import math
import re
import statistics
from typing import Any, Mapping

from benchmarks.catalog import LANGS, Msg, from_json, render
from benchmarks.report import _cell
from benchmarks.timing import Comparison, describe_ratio

#: The verdict as printed, per language: (direction word, ratio). The words are written here, not read
#: from the catalog, so that a catalog whose "faster" says 遅い fails too.
VERDICT = {
    "en": [
        (re.compile(r"^(\d+(?:\.\d+)?)x faster$"), "faster"),
        (re.compile(r"^(\d+(?:\.\d+)?)x slower$"), "slower"),
        (re.compile(r"^(\d+(?:\.\d+)?)x slower \(one measurement\)$"), "once"),
        (re.compile(r"^no clear difference \((\d+(?:\.\d+)?)x\)$"), "unclear"),
    ],
    "ja": [
        (re.compile(r"^(\d+(?:\.\d+)?) 倍速い$"), "faster"),
        (re.compile(r"^(\d+(?:\.\d+)?) 倍遅い$"), "slower"),
        (re.compile(r"^(\d+(?:\.\d+)?) 倍遅い[(（]1 回だけの計測[)）]$"), "once"),
        (re.compile(r"^明確な差なし[(（](\d+(?:\.\d+)?) 倍[)）]$"), "unclear"),
    ],
}
#: The verdict keys a timed row may carry (``verdict.baseline`` is the baseline's own row: no ratio).
TIMED = {"verdict.faster", "verdict.slower", "verdict.unclear", "verdict.one_measurement"}
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?")
REL = 1e-9  # floating-point slack of a product or quotient of stored values


def printed(text: str, sig3: bool = False) -> tuple[float, float]:
    """The interval a printed number stands for: half a unit of its last printed digit either side.

    ``sig3``: the number was printed with three significant digits (``FORMATS["sig3"]``), which drops
    trailing zeros (2.70 prints ``2.7``): half a unit of the third significant digit.

    Examples:
        >>> printed("13.50")
        (13.495, 13.505)
        >>> [round(x, 6) for x in printed("2.7", sig3=True)], printed("1,270", sig3=True)
        ([2.695, 2.705], (1265.0, 1275.0))
    """
    match = NUMBER.search(text)
    assert match, f"no number in {text!r}"
    raw = match.group().replace(",", "")
    value = float(raw)
    if sig3 and value:
        half = 0.5 * 10.0 ** (math.floor(math.log10(abs(value))) - 2)
    else:
        mantissa, _, exponent = raw.partition("e")
        decimals = len(mantissa.partition(".")[2])
        half = 0.5 * 10.0 ** (int(exponent or 0) - decimals)
    return value - half, value + half


def _verdict(text: str, lang: str) -> tuple[str, tuple[float, float]] | None:
    for pattern, word in VERDICT[lang]:
        match = pattern.match(text)
        if match:
            return word, printed(match.group(1))
    return None


def _spread(value: Any, lang: str) -> tuple[float, float] | None:
    """The spread interval of a row: its printed figure, 1 for a single pass, None when unknown."""
    value = from_json(value)
    if isinstance(value, Msg) and value.key == "spread.single_pass":
        return 1.0, 1.0
    if value is None:
        return None
    return printed(render(value, lang))


def row_problems(data: Mapping[str, Any], where: str = "") -> list[str]:
    """Every contradiction between a result file's rows (as printed) and their times, and in its comparisons.

    Args:
        data: A result file's data (``<case>.json``, loaded).
        where: A name for the messages (the file).

    Returns:
        One line per problem; an empty list when every row agrees with its times.
    """
    found: list[str] = []
    columns = {c["key"]: c for c in data.get("columns", [])}
    for n, row in enumerate(data.get("rows", [])):
        for lang in LANGS:
            found += [f"{where} row {n} ({lang}): {p}" for p in _timed_row(row, columns, lang)]
        found += [f"{where} row {n}: {p}" for p in _gpu_matmul_row(row, columns)]
    for label, c in data.get("comparisons", {}).items():
        found += [f"{where} comparison {label!r}: {p}" for p in _comparison(c)]
    return found


def _timed_row(row: Mapping[str, Any], columns: Mapping[str, Any], lang: str) -> list[str]:
    verdict = from_json(row.get("verdict"))
    if not isinstance(verdict, Msg) or verdict.key not in TIMED:
        return []
    if "baseline_ms" not in columns or "variant_ms" not in columns or row.get("baseline_ms") is None or row.get("variant_ms") is None:
        return [f"a verdict ({verdict.key}) without the two times it is made from"]
    cell = {key: _cell(row.get(key), columns[key]["format"], lang) for key in ("baseline_ms", "variant_ms", "verdict")}
    said = _verdict(cell["verdict"], lang)
    if said is None:
        return [f"verdict {cell['verdict']!r} says neither faster, slower nor no clear difference"]
    word, (r_lo, r_hi) = said
    if word in ("slower", "once"):  # printed as baseline time / variant time's inverse: "2.50x slower" is 0.4
        r_lo, r_hi = 1 / r_hi, 1 / r_lo
    b_lo, b_hi = printed(cell["baseline_ms"], sig3=columns["baseline_ms"]["format"] == "sig3")
    v_lo, v_hi = printed(cell["variant_ms"], sig3=columns["variant_ms"]["format"] == "sig3")
    t_lo, t_hi = b_lo / v_hi, b_hi / v_lo
    spread = (1.0, 1.0) if word == "once" else _spread(row.get("spread"), lang) if "spread" in columns else None
    if spread is None:
        return [f"{cell['verdict']!r} without a spread to judge it by"]
    s_hi = spread[1]
    shown = f"{cell['verdict']!r} beside {cell['baseline_ms']} ms (baseline) and {cell['variant_ms']} ms, spread {s_hi:.3g}"
    found = []
    b, v = (float(cell[k].replace(",", "")) for k in ("baseline_ms", "variant_ms"))
    if word == "faster" and not (b >= v and r_hi >= 1):
        found.append(f"{shown}: says faster, the times say slower")
    if word in ("slower", "once") and not (b <= v and r_lo <= 1):
        found.append(f"{shown}: says slower, the times say faster")
    if word == "unclear" and not s_hi >= max(r_lo, 1 / r_hi):
        found.append(f"{shown}: 'no clear difference' needs rounds that disagree, but the spread is below the ratio")
    if t_hi * (1 + REL) < r_lo / s_hi or t_lo * (1 - REL) > r_hi * s_hi:
        found.append(f"{shown}: the times' ratio {b / v:.3g} is not within the spread of the stated ratio")
    return found


def _gpu_matmul_row(row: Mapping[str, Any], columns: Mapping[str, Any]) -> list[str]:
    """The GPU matmul table's derived columns: timers' agreement = events / loop; TFLOP/s = 2 n^3 / events."""
    found = []
    if {"events_ms", "loop_ms", "agreement"} <= set(columns) and None not in (row.get("events_ms"), row.get("loop_ms"), row.get("agreement")):
        e, lp, a = (_printed_cell(row, columns, key) for key in ("events_ms", "loop_ms", "agreement"))
        if e[1] / lp[0] * (1 + REL) < a[0] or e[0] / lp[1] * (1 - REL) > a[1]:
            found.append(f"timers agree {a} is not events {e} ms / loop {lp} ms")
    if {"tflops", "events_ms", "n"} <= set(columns) and row.get("tflops") is not None:
        n = int(row["n"])
        ms, tf = _printed_cell(row, columns, "events_ms"), _printed_cell(row, columns, "tflops")
        if 2 * n**3 / (ms[1] * 1e9) * (1 - REL) > tf[1] or 2 * n**3 / (ms[0] * 1e9) * (1 + REL) < tf[0]:
            found.append(f"{tf} TFLOP/s is not 2 x {n}^3 over {ms} ms")
    return found


def _printed_cell(row: Mapping[str, Any], columns: Mapping[str, Any], key: str) -> tuple[float, float]:
    fmt = columns[key]["format"]
    return printed(_cell(row[key], fmt, "en"), sig3=fmt == "sig3")


def _comparison(c: Mapping[str, Any]) -> list[str]:
    """A stored comparison: its median, spread, verdict and times recomputed from its rounds."""
    ratios = c.get("ratios")
    if not ratios:
        return ["no per-round ratios"]
    found = []
    if not math.isclose(c["ratio"], statistics.median(ratios), rel_tol=REL):
        found.append(f"ratio {c['ratio']} is not the median of its rounds ({statistics.median(ratios)})")
    if not math.isclose(c["spread"], max(ratios) / min(ratios), rel_tol=REL):
        found.append(f"spread {c['spread']} is not largest / smallest round ({max(ratios) / min(ratios)})")
    again = describe_ratio(Comparison(c["baseline"], c["variant"], c["baseline_ms"] / 1e3, c["variant_ms"] / 1e3, tuple(ratios)))
    if c.get("verdict") != again.render("en"):
        found.append(f"verdict {c.get('verdict')!r}, but its rounds say {again.render('en')!r}")
    t = c["baseline_ms"] / c["variant_ms"]
    if not min(ratios) * (1 - REL) <= t <= max(ratios) * (1 + REL):
        found.append(f"its times' ratio {t:.4g} lies outside its rounds' ratios [{min(ratios):.4g}, {max(ratios):.4g}]")
    return found
