"""Cell formatters and the column set shared by timed cases."""

from __future__ import annotations

from benchmarks.report import Column


def ms(value: float) -> str:
    """Milliseconds with three significant digits."""
    return f"{value:.3g}"


def times(value: float) -> str:
    """A ratio such as ``3.97x``."""
    return f"{value:.2f}x"


def percent(value: float) -> str:
    """A fraction as a percentage: two decimals from 0.1 %, scientific notation below."""
    pct = value * 100
    return f"{pct:.2f} %" if pct >= 0.1 or pct == 0 else f"{pct:.1e} %"


def timed_columns(baseline_header: str, variant_header: str) -> list[Column]:
    """The columns every timed comparison ends with."""
    return [
        Column("baseline_ms", baseline_header, ms),
        Column("variant_ms", variant_header, ms),
        Column("verdict", "result (median of rounds)"),
        Column("spread", "spread (max/min)"),
    ]
