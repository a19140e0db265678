"""Alternating-round timing: the measuring method every benchmark case uses.

Two variants of the same work are timed in one process, one thread by default,
after a warm-up, and *alternated round by round* (baseline, variant, variant,
baseline, ...), so that a slow patch of a shared machine hits both of them. Each
round gives one ratio ``baseline time / variant time``; the figure to quote is the
median of those ratios, and their spread (largest / smallest) says how far the
figure can be trusted.

Timing uses ``torch.utils.benchmark.Timer``, which sets the thread count for the
measurement and synchronizes CUDA before reading the clock.
"""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Callable

import torch
from torch.utils import benchmark

from benchmarks.catalog import Msg, english
from reference_impl.errors import ConfigError

__all__ = ["SPREAD_LIMIT", "Comparison", "compare", "describe_ratio"]

#: A comparison whose per-round ratios differ by more than this factor is flagged
#: as too noisy to publish (re-run it on a quieter machine).
SPREAD_LIMIT = 1.3


@dataclass(frozen=True)
class Comparison:
    """One variant timed against a baseline over alternating rounds.

    Attributes:
        baseline: Name of the baseline (for example ``"float32"``).
        variant: Name of the variant (for example ``"int8 dynamic"``).
        baseline_s: Median seconds per call of the baseline over the rounds.
        variant_s: Median seconds per call of the variant over the rounds.
        ratios: Per-round ``baseline time / variant time`` (> 1: the variant is faster).

    Examples:
        >>> c = Comparison("float32", "int8", 2e-3, 1e-3, (1.9, 2.0, 2.2))
        >>> c.ratio, round(c.spread, 3), c.noisy
        (2.0, 1.158, False)
    """

    baseline: str
    variant: str
    baseline_s: float
    variant_s: float
    ratios: tuple[float, ...]

    @property
    def ratio(self) -> float:
        """Median of the per-round ratios (> 1: the variant is faster)."""
        return statistics.median(self.ratios)

    @property
    def spread(self) -> float:
        """Largest per-round ratio divided by the smallest (1.0 = perfectly steady)."""
        return max(self.ratios) / min(self.ratios)

    @property
    def noisy(self) -> bool:
        """True when the spread exceeds `SPREAD_LIMIT` (1.3)."""
        return self.spread > SPREAD_LIMIT

    def to_json(self) -> dict:
        """The comparison as plain JSON types, with its derived figures.

        Returns:
            A dict with the names, times in milliseconds, the per-round ratios,
            the median ratio, the spread and the ``too_noisy`` flag.
        """
        return {
            "baseline": self.baseline,
            "variant": self.variant,
            "baseline_ms": self.baseline_s * 1e3,
            "variant_ms": self.variant_s * 1e3,
            "ratios": list(self.ratios),
            "ratio": self.ratio,
            "spread": self.spread,
            "too_noisy": self.noisy,
            "verdict": english(describe_ratio(self)),
        }


def describe_ratio(c: Comparison) -> Msg:
    """Say whether the variant was faster or slower than the baseline, as a table message.

    A ratio below 1 is reported as a slowdown (``"2.50x slower"``), never hidden.
    When the rounds disagree on the direction (some ratios above 1, some below)
    the result is "no clear difference".

    Args:
        c: The comparison.

    Returns:
        A [Msg][benchmarks.catalog.Msg] for a results table (``.render("en")`` for the English text).

    Examples:
        >>> describe_ratio(Comparison("a", "b", 1.0, 0.5, (2.0, 2.1, 1.9))).render("en")
        '2.00x faster'
        >>> describe_ratio(Comparison("a", "b", 1.0, 2.5, (0.4, 0.41, 0.39))).render("ja")
        '2.50 倍遅い'
        >>> describe_ratio(Comparison("a", "b", 1.0, 1.0, (0.98, 1.03, 1.0))).render("en")
        'no clear difference (1.00x)'
    """
    r = c.ratio
    if min(c.ratios) < 1.0 < max(c.ratios):
        return Msg("verdict.unclear", ratio=r)
    if r >= 1.0:
        return Msg("verdict.faster", ratio=r)
    return Msg("verdict.slower", ratio=1.0 / r)


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def _seconds_per_call(fn: Callable[[], object], device: str) -> float:
    _sync(device)
    start = time.perf_counter()
    fn()
    _sync(device)
    return time.perf_counter() - start


def _best_of_blocks(timer: benchmark.Timer, number: int, blocks: int) -> float:
    """Seconds per call: the fastest of ``blocks`` blocks of calls (other processes only ever add time)."""
    blocks = min(blocks, number)
    return min(timer.timeit(number // blocks).mean for _ in range(blocks))


def compare(
    baseline: tuple[str, Callable[[], object]],
    variants: dict[str, Callable[[], object]],
    *,
    rounds: int = 7,
    min_time: float = 0.2,
    warmup: int = 3,
    threads: int = 1,
    device: str = "cpu",
    blocks: int = 20,
) -> dict[str, Comparison]:
    """Time a baseline and its variants in alternating rounds.

    Every callable is first run ``warmup`` times (which also triggers lazy work such
    as ``torch.compile`` or weight packing), then its calls per measurement are
    chosen so that one measurement lasts about ``min_time`` seconds. Each round
    measures every callable once, in an order that rotates from round to round; a
    measurement is split into ``blocks`` blocks and keeps the fastest block's time per
    call, because interference from other processes only ever adds time.

    Args:
        baseline: ``(name, callable)`` of the reference variant (usually float32).
        variants: Names and callables to compare against it.
        rounds: Number of rounds (at least 2).
        min_time: Target seconds per measurement.
        warmup: Untimed calls of each callable before measuring.
        threads: Threads for the measurement (``torch.utils.benchmark.Timer`` sets them).
        device: ``"cpu"`` or ``"cuda"`` (CUDA is synchronized around every measurement).
        blocks: Blocks per measurement (the fastest counts).

    Returns:
        One [Comparison][benchmarks.timing.Comparison] per variant name.

    Raises:
        ConfigError: ``rounds`` < 2, ``min_time`` <= 0 or no variants.

    Examples:
        >>> import torch
        >>> x = torch.randn(64, 64)
        >>> out = compare(("matmul", lambda: x @ x), {"add": lambda: x + x}, rounds=2, min_time=0.001)
        >>> out["add"].baseline, len(out["add"].ratios)
        ('matmul', 2)
    """
    if rounds < 2:
        raise ConfigError(f"rounds must be >= 2 to compute a spread, got {rounds}")
    if min_time <= 0:
        raise ConfigError(f"min_time must be > 0 seconds, got {min_time}")
    if blocks < 1:
        raise ConfigError(f"blocks must be >= 1, got {blocks}")
    if not variants:
        raise ConfigError("give at least one variant to compare against the baseline")
    base_name, base_fn = baseline
    fns = {base_name: base_fn, **variants}
    numbers: dict[str, int] = {}
    timers: dict[str, benchmark.Timer] = {}
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for name, fn in fns.items():
            for _ in range(warmup):
                fn()
            one = max(_seconds_per_call(fn, device), 1e-7)
            numbers[name] = max(1, math.ceil(min_time / one))
            timers[name] = benchmark.Timer(stmt="fn()", globals={"fn": fn}, num_threads=threads)
    finally:
        torch.set_num_threads(previous_threads)
    names = list(fns)
    per_round: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        k = r % len(names)
        order = names[k:] + names[:k]
        if (r // len(names)) % 2:  # every other cycle backwards: with two variants r % 2 would undo the rotation
            order.reverse()
        for name in order:
            per_round[name].append(_best_of_blocks(timers[name], numbers[name], blocks))
    base_times = per_round[base_name]
    return {
        name: Comparison(
            baseline=base_name,
            variant=name,
            baseline_s=statistics.median(base_times),
            variant_s=statistics.median(per_round[name]),
            ratios=tuple(b / v for b, v in zip(base_times, per_round[name])),
        )
        for name in variants
    }
