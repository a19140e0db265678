"""The order in which the benchmark's timing loop calls its variants (benchmarks/timing.py ``compare``).

``compare`` times a baseline and its variants in rounds; within a round every callable is measured
once, and the order rotates by one from round to round and is reversed on every other round
(baseline, variant, variant, baseline, ...), so that neither a slow patch of a shared machine nor
a cache warmed by the previous measurement favours one variant. Counting the ratios (as
test_bench.py does) cannot see that; here the clock and the functions are fakes that write down
each call, so the test fails as soon as the rounds run in a fixed order.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from benchmarks import timing


class FakeClock:
    """``time.perf_counter`` for the timing module: advances only when a fake function runs."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


def _fakes(monkeypatch, costs: dict[str, float]):
    """Fake callables (each advances the fake clock by its cost and logs its name) and a fake Timer
    whose measurement is one call; returns (callables, the log of measured calls)."""
    clock = FakeClock()
    log: list[str] = []
    measuring = {"on": False}

    def make(name):
        def fn():
            clock.now += costs[name]
            if measuring["on"]:
                log.append(name)
        return fn

    class FakeTimer:
        def __init__(self, stmt, globals, num_threads):  # noqa: A002 - torch's keyword
            self.fn = globals["fn"]

        def timeit(self, number):
            measuring["on"] = True
            start = clock.now
            self.fn()
            measuring["on"] = False
            return SimpleNamespace(mean=clock.now - start)

    monkeypatch.setattr(timing, "time", SimpleNamespace(perf_counter=clock.perf_counter))
    monkeypatch.setattr(timing.benchmark, "Timer", FakeTimer)
    return {name: make(name) for name in costs}, log


def _rounds(log: list[str], per_round: int) -> list[list[str]]:
    return [log[i : i + per_round] for i in range(0, len(log), per_round)]


def order_problems(rounds: list[list[str]], names: list[str]) -> list[str]:
    """What is wrong with the rounds' order: a round that does not measure each callable once; a
    callable measured first (or last) in fewer rounds than its share; a callable never measured
    right after another one (its measurement would always follow the same neighbour)."""
    found = []
    n, share = len(names), len(rounds) // len(names)
    for i, r in enumerate(rounds):
        if sorted(r) != sorted(names):
            found.append(f"round {i} measures {r}, not each of {names} once")
    for where, pos in (("first", 0), ("last", -1)):
        for name in names:
            times = sum(r[pos] == name for r in rounds)
            if times < share:
                found.append(f"{name} is measured {where} in {times} of {len(rounds)} rounds (its share: {share})")
    if n > 2:
        seen = {(a, b) for r in rounds for a, b in itertools.pairwise(r)}
        found += [f"{b} is never measured right after {a}" for a in names for b in names if a != b and (a, b) not in seen]
    return found


def test_rounds_rotate_and_reverse(monkeypatch):
    """Three callables over six rounds: each first twice and last twice, each right after each other one."""
    costs = {"float32": 4e-3, "bf16": 2e-3, "int8": 1e-3}
    fns, log = _fakes(monkeypatch, costs)
    out = timing.compare(("float32", fns["float32"]), {"bf16": fns["bf16"], "int8": fns["int8"]},
                         rounds=6, min_time=1e-3, warmup=1, blocks=1)
    rounds = _rounds(log, 3)
    assert len(rounds) == 6 and not order_problems(rounds, list(costs)), (order_problems(rounds, list(costs)), rounds)
    # the ratios are those of the fake costs: each measurement was timed on its own calls
    assert out["bf16"].ratios == pytest.approx((2.0,) * 6) and out["int8"].ratios == pytest.approx((4.0,) * 6)


def test_two_callables_take_turns_going_first(monkeypatch):
    fns, log = _fakes(monkeypatch, {"a": 1e-3, "b": 1e-3})
    timing.compare(("a", fns["a"]), {"b": fns["b"]}, rounds=4, min_time=1e-3, warmup=0, blocks=1)
    rounds = _rounds(log, 2)
    assert len(rounds) == 4 and not order_problems(rounds, ["a", "b"]), (order_problems(rounds, ["a", "b"]), rounds)


def test_order_problems_sees_a_fixed_order():
    """The check itself: rounds in one fixed order are reported."""
    fixed = [["a", "b", "c"]] * 6
    assert "b is measured first in 0 of 6 rounds (its share: 2)" in order_problems(fixed, ["a", "b", "c"])
    assert "a is never measured right after b" in order_problems(fixed, ["a", "b", "c"])
