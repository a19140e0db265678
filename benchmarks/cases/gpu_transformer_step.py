"""A transformer's training step on a GPU: float32, TF32, float16 + GradScaler, bfloat16.

CUDA only (``--device cuda``); ``--dry-run`` runs the same code on a CPU stand-in with a tiny model
(`STAND_IN`): the same checks, warm-up, rounds, result files and tables.

**Why this size.** The first design (one ``TransformerEncoderLayer``, d_model 1024, batch 16 x 256)
gave an 8.4 ms float32 step on an H100 and per-round ratios that spread 1.47-1.53 (the
``gpu_transformer_step.json`` of 2026-11-26 in ``benchmarks/results/cuda``). Its matmuls were about
1024 wide, where the same H100 ran bfloat16 at 122 TFLOP/s (12 % of its peak) against 775 at
n = 4096 (the ``gpu_matmul`` case): a step of short kernels, timed in blocks of a few steps, whose
ratio a short delay on the host or a change of clock could move. `FULL` is four layers of
d_model 4096 (32 heads, feed-forward 16384) with a 1000-class head on 16 x 1024 = 16,384 tokens:
every projection and feed-forward matmul is at least 16384 x 4096 x 4096 (over 95 % of the FLOPs; the
attention and the head are the rest), the shape at which that H100 reached 64-79 % of its
data-sheet peak.

**The estimate** (`StepShape.flops`, `estimate_seconds`, `float32_memory_gib`; the tests recompute
it from the committed H100 matmul results). One step is ``3 x (L (8 d^2 + 4 d ff + 4 s d) + 2 d C)``
FLOPs per token (the forward once, the backward twice): 5.06 GFLOP per token, 82.9 TFLOP per step.
At the H100's measured matmul rates (float32 51.4, TF32 392, float16 741, bfloat16 775 TFLOP/s)
and 70 % of them for the whole step (`STEP_EFFICIENCY`: layer norms, softmax, the optimizer), a
step takes about 2.3 s in float32, 0.30 s in TF32 and 0.15-0.16 s in float16 or bfloat16. With
`ROUND_MS` = 250 ms of GPU time per variant per round that is 1, 1, 2 and 2 steps per round, and
the case (5 check steps and 2 warm-up passes of each variant, 9 rounds) takes about 50 s: the whole
``python -m benchmarks --device cuda`` run about 200 s (it took 166 s with the old 18 s case).
Memory in float32: 810 M parameters, with their gradients and AdamW's two moments 13 GB, and the
activations autograd keeps, at most `ACTIVATION_FLOATS` (17) x d floats per token and layer (the
tests count 12.5 on a CPU, where attention runs the same fused kernel), 18 GB: about 31 GB
(29 GiB) of the 80 GB. Should float32 attention fall back to the unfused kernel, its scores
(16 x 32 heads x 1024 x 1024) would add about 4 GB per layer: still under 50 GB.

**How it is timed.**

* **Checks first**, each on a fresh copy of the same seeded model: a few steps per variant, the
  logits in the autocast dtype, and (on a GPU) TF32's loss not bit-identical to float32's, where
  an identical one would mean the switch did nothing (`check_engaged`). TF32 is switched with the
  ``fp32_precision`` API. The loss difference after those steps is a column.
* **One model while timed.** The variants then share one model and one AdamW optimizer (four
  copies of the float32 model with their AdamW state would take 52 GB); each step starts with
  ``zero_grad`` and ends with the optimizer step, so they differ only in precision.
* **Warm-up until steady** (`warm_up`): passes of every variant, in the rotated orders the rounds
  use, until a pass changes nothing the timed steps would pay for: the caching allocator's reserve
  (the memory autocast's cast cache and the activations take) and the GradScaler's scale (a
  skipped step at the start of float16 training). The last pass gives each variant's step time
  and its peak memory (``torch.cuda.max_memory_allocated`` over one step after
  ``torch.cuda.reset_peak_memory_stats``: the shared model, gradients and AdamW state included).
* **Rounds** (`time_rounds`): each round times every variant once, in a rotated order, over
  consecutive steps between two CUDA events (`steps_per_round`: at least `ROUND_MS` of GPU time),
  cross-checked against the host clock around the same steps (``gpu_matmul.check_timers``).
  The per-round ratio is float32's time per step over the variant's; the table gives the median
  and the spread, flagged above `SPREAD_LIMIT` (1.10, tighter than the command's 1.3: a quiet
  GPU running 0.25 s or more per measurement varies by a few percent).
"""

from __future__ import annotations

import copy
import math
import statistics
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import torch
from torch import nn

from benchmarks.cases.amp_step import backward_and_step
from benchmarks.cases.gpu_matmul import check_timers
from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns
from benchmarks.timing import Comparison
from reference_impl._checks import dtype_name
from reference_impl.errors import (
    ConfigError,
    CudaUnavailableError,
    VariantNotEngagedError,
)

__all__ = [
    "FULL",
    "QUICK",
    "ROUND_MS",
    "SPREAD_LIMIT",
    "STAND_IN",
    "VARIANTS",
    "Step",
    "StepComparison",
    "StepShape",
    "check_engaged",
    "estimate_seconds",
    "float32_memory_gib",
    "make_block",
    "make_step",
    "round_order",
    "run",
    "steps_per_round",
    "time_rounds",
    "warm_up",
]

#: Variant label -> (autocast dtype or None, CUDA matmul fp32_precision, uses a GradScaler).
VARIANTS: dict[str, tuple[torch.dtype | None, str, bool]] = {
    "float32": (None, "ieee", False),
    "tf32": (None, "tf32", False),
    "autocast float16 + GradScaler": (torch.float16, "ieee", True),
    "autocast bfloat16": (torch.bfloat16, "ieee", False),
}

#: This case's spread limit (the command's is 1.3): rows whose per-round ratios spread more are flagged.
SPREAD_LIMIT = 1.10
#: GPU time each variant runs per round, at least (milliseconds), on a GPU; `STAND_IN_ROUND_MS` on the CPU stand-in.
ROUND_MS = 250.0
#: Quick GPU runs (the cuda-marked test) and the CPU stand-in only check that everything runs.
QUICK_ROUND_MS = 25.0
STAND_IN_ROUND_MS = 20.0
#: Share of the gpu_matmul rate a whole training step reaches in the estimate (layer norms,
#: softmax, elementwise work and the optimizer run at memory speed).
STEP_EFFICIENCY = 0.7
#: Activation floats autograd keeps per token, layer and d_model in a TransformerEncoderLayer, at
#: most (input, q, k, v, attention output, two residual sums, two layer norms, the feed-forward's
#: two 4d-wide tensors): the estimate of `float32_memory_gib`. The tests count 12.5 on a CPU.
ACTIVATION_FLOATS = 17


@dataclass(frozen=True)
class StepShape:
    """The model and batch of the step.

    Attributes:
        layers: ``TransformerEncoderLayer`` count.
        d_model: Model width.
        heads: Attention heads.
        ff: Feed-forward width.
        classes: Classes of the per-token head.
        batch: Sequences per step.
        seq: Tokens per sequence.
    """

    layers: int
    d_model: int
    heads: int
    ff: int
    classes: int
    batch: int
    seq: int

    @property
    def tokens(self) -> int:
        """Tokens per step."""
        return self.batch * self.seq

    def flops(self) -> float:
        """FLOPs of one training step: matmuls and attention, the backward counted as twice the forward.

        Per token and layer the forward costs ``8 d^2`` (q, k, v and output projections),
        ``4 d ff`` (feed-forward) and ``4 s d`` (scores and weighted sum); the head ``2 d C``.

        Examples:
            >>> round(FULL.flops() / 1e12, 1)
            82.9
        """
        d, s = self.d_model, self.seq
        per_token = self.layers * (8 * d * d + 4 * d * self.ff + 4 * s * d) + 2 * d * self.classes
        return 3.0 * per_token * self.tokens

    def parameters(self) -> int:
        """Parameter count of `make_block` with this shape (weights, biases, layer norms, head).

        Examples:
            >>> round(FULL.parameters() / 1e6)
            810
        """
        d, ff = self.d_model, self.ff
        per_layer = 4 * d * d + 2 * d * ff + 9 * d + ff
        return self.layers * per_layer + d * self.classes + self.classes


#: The GPU run: four layers at d_model 4096, 16,384 tokens per step (see the module docstring).
FULL = StepShape(layers=4, d_model=4096, heads=32, ff=16384, classes=1000, batch=16, seq=1024)
#: A quick GPU run (the cuda-marked test): small, only that it runs.
QUICK = StepShape(layers=2, d_model=1024, heads=16, ff=4096, classes=1000, batch=8, seq=512)
#: The CPU stand-in (``--dry-run``): tiny, the same code path.
STAND_IN = StepShape(layers=2, d_model=32, heads=4, ff=64, classes=10, batch=2, seq=8)


def float32_memory_gib(shape: StepShape) -> float:
    """Estimated GiB a float32 step of `shape` holds at its peak: parameters, gradients, AdamW's
    two moments (16 bytes per parameter) and the activations autograd keeps (`ACTIVATION_FLOATS`).

    Examples:
        >>> round(float32_memory_gib(FULL))
        29
    """
    states = 16 * shape.parameters()
    activations = 4 * ACTIVATION_FLOATS * shape.d_model * shape.tokens * shape.layers
    logits = 2 * 4 * shape.tokens * shape.classes  # the logits and their gradient
    return (states + activations + logits) / 2**30


def steps_per_round(step_ms: float, round_ms: float) -> int:
    """Consecutive steps one measurement needs to last at least ``round_ms``.

    Examples:
        >>> steps_per_round(2300.0, 250.0), steps_per_round(160.0, 250.0), steps_per_round(8.4, 250.0)
        (1, 2, 30)
    """
    if step_ms <= 0:
        return 1
    return max(1, math.ceil(round_ms / step_ms))


def estimate_seconds(shape: StepShape, tflops: Mapping[str, float], *, rounds: int, round_ms: float = ROUND_MS,
                     check_steps: int = 5, warmup_passes: int = 2,
                     efficiency: float = STEP_EFFICIENCY) -> dict[str, float]:
    """Seconds the case takes on a GPU with the given matmul rates, per variant and in all.

    Args:
        shape: The step.
        tflops: Variant -> the GPU's matmul TFLOP/s in that format (the gpu_matmul case).
        rounds: Timed rounds.
        round_ms: GPU time per variant per round.
        check_steps: Steps of the checks, per variant.
        warmup_passes: Warm-up passes (one step of every variant each).
        efficiency: Share of the matmul rate the whole step reaches.

    Returns:
        ``{variant: seconds per step, ..., "case": seconds of the whole case}``.

    Examples:
        >>> rates = {"float32": 51.4, "tf32": 392, "autocast float16 + GradScaler": 741, "autocast bfloat16": 775}
        >>> est = estimate_seconds(FULL, rates, rounds=9)
        >>> round(est["float32"], 2), round(est["autocast bfloat16"], 3), round(est["case"])
        (2.3, 0.153, 49)
    """
    per_step = {name: shape.flops() / (rate * 1e12 * efficiency) for name, rate in tflops.items()}
    total = 0.0
    for seconds in per_step.values():
        timed = rounds * steps_per_round(seconds * 1e3, round_ms)
        total += (check_steps + warmup_passes + timed) * seconds
    return {**per_step, "case": total}


def make_block(shape: StepShape, device: str | torch.device = "cpu") -> nn.Module:
    """``shape.layers`` transformer encoder layers and a per-token classification head, seeded (every
    variant starts from the same weights), built directly on ``device``.

    Examples:
        >>> block = make_block(STAND_IN)
        >>> sum(p.numel() for p in block.parameters()) == STAND_IN.parameters()
        True
    """
    torch.manual_seed(0)
    with torch.device(device):
        layers = [
            nn.TransformerEncoderLayer(shape.d_model, shape.heads, shape.ff, dropout=0.0, batch_first=True)
            for _ in range(shape.layers)
        ]
        return nn.Sequential(*layers, nn.Linear(shape.d_model, shape.classes))


@dataclass(eq=False)
class Step:
    """One variant's training step: ``zero_grad``, forward, cross-entropy, backward, AdamW step.

    Calling it runs one step and returns the loss (a tensor: nothing waits for the GPU).

    Attributes:
        variant: A key of `VARIANTS`.
        model: The model it trains.
        optimizer: Its AdamW optimizer.
        x: Input ``(batch, seq, d_model)``.
        y: Targets ``(batch, seq)``.
        scaler: The GradScaler of the float16 variant, else ``None``.
        logits_dtype: The dtype of the last step's logits (``None`` before the first step).
    """

    variant: str
    model: nn.Module
    optimizer: torch.optim.Optimizer
    x: torch.Tensor
    y: torch.Tensor
    scaler: torch.amp.GradScaler | None = None
    logits_dtype: torch.dtype | None = field(default=None)

    def __call__(self) -> torch.Tensor:
        dtype, precision, _ = VARIANTS[self.variant]
        device = self.x.device.type
        matmul = torch.backends.cuda.matmul
        previous = matmul.fp32_precision
        matmul.fp32_precision = precision
        try:
            self.optimizer.zero_grad(set_to_none=True)
            with torch.autocast(device, dtype=dtype) if dtype is not None else nullcontext():
                logits = self.model(self.x)
            self.logits_dtype = logits.dtype
            loss = nn.functional.cross_entropy(logits.float().flatten(0, 1), self.y.flatten())
            backward_and_step(loss, self.optimizer, self.scaler)
            return loss.detach()
        finally:
            matmul.fp32_precision = previous


def make_step(model: nn.Module, x: torch.Tensor, y: torch.Tensor, variant: str, *,
              optimizer: torch.optim.Optimizer | None = None) -> Step:
    """``variant``'s step (a key of `VARIANTS`) on a fresh copy of ``model`` with its own AdamW,
    or, given an ``optimizer``, on ``model`` itself with that optimizer (shared by the variants).

    Examples:
        >>> block = make_block(STAND_IN)
        >>> x, y = torch.randn(2, 6, 32), torch.randint(0, 10, (2, 6))
        >>> step = make_step(block, x, y, "autocast bfloat16")
        >>> loss = step(); step.logits_dtype
        torch.bfloat16
    """
    if variant not in VARIANTS:
        raise ConfigError(f"unknown variant {variant!r}; choose from {list(VARIANTS)}")
    if optimizer is None:
        model = copy.deepcopy(model)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scaler = torch.amp.GradScaler(x.device.type) if VARIANTS[variant][2] else None
    return Step(variant, model, optimizer, x, y, scaler)


def round_order(names: Sequence[str], r: int) -> list[str]:
    """The order of round ``r``: rotated by ``r``, reversed every other round (as `benchmarks.timing.compare`).

    Examples:
        >>> [round_order("abc", r) for r in range(3)]
        [['a', 'b', 'c'], ['a', 'c', 'b'], ['c', 'a', 'b']]
    """
    k = r % len(names)
    order = list(names[k:]) + list(names[:k])
    if r % 2:
        order.reverse()
    return order


#: A timer: (step, steps) -> (ms per step by the device's clock, ms per step by the host clock).
Timer = Callable[[Callable[[], object], int], tuple[float, float]]


def cuda_timer(fn: Callable[[], object], steps: int) -> tuple[float, float]:
    """``steps`` consecutive calls between two CUDA events, and by the host clock around them (synchronized).

    Returns:
        ``(events ms per step, host ms per step)``.

    Raises:
        CudaUnavailableError: No GPU.
    """
    if not torch.cuda.is_available():
        raise CudaUnavailableError("cuda_timer needs a GPU; the CPU stand-in times with cpu_timer")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    start.record()
    for _ in range(steps):
        fn()
    end.record()
    end.synchronize()
    host_ms = (time.perf_counter() - t0) * 1e3
    return start.elapsed_time(end) / steps, host_ms / steps


def cpu_timer(fn: Callable[[], object], steps: int) -> tuple[float, float]:
    """The stand-in's timer: the host clock for both figures.

    Examples:
        >>> ms, same = cpu_timer(lambda: None, 3)
        >>> ms == same and ms >= 0
        True
    """
    t0 = time.perf_counter()
    for _ in range(steps):
        fn()
    ms = (time.perf_counter() - t0) * 1e3 / steps
    return ms, ms


def warm_up(steps: Mapping[str, Callable[[], object]], measure: Callable[[str, Callable[[], object]], Any],
            state: Callable[[], Any], *, min_passes: int = 2, max_passes: int = 5) -> tuple[int, bool, dict[str, Any]]:
    """Run passes of every variant (in the orders `round_order` gives the rounds) until a pass leaves
    ``state()`` as it found it.

    Args:
        steps: Variant -> step.
        measure: ``(name, step) -> value``: runs the step once and returns what to keep (its time
            and peak memory); the last pass's values are returned.
        state: What a timed step must not change any more (the allocator's reserve, the GradScaler's scale).
        min_passes: Passes at least (the first creates AdamW's state and the GradScaler's).
        max_passes: Passes at most.

    Returns:
        ``(passes run, whether the last pass changed nothing, {variant: the last pass's value})``.

    Examples:
        >>> reserve = iter([0, 100, 120, 120])  # grows in the first two passes, then stays
        >>> warm_up({"a": lambda: None, "b": lambda: None}, lambda name, fn: fn() or name, lambda: next(reserve))
        (3, True, {'a': 'a', 'b': 'b'})
    """
    if min_passes < 1 or max_passes < min_passes:
        raise ConfigError(f"need 1 <= min_passes <= max_passes, got {min_passes} and {max_passes}")
    names = list(steps)
    before = state()
    last: dict[str, Any] = {}
    for p in range(1, max_passes + 1):
        for name in round_order(names, p - 1):
            last[name] = measure(name, steps[name])
        after = state()
        if p >= min_passes and after == before:
            return p, True, {name: last[name] for name in names}
        before = after
    return max_passes, False, {name: last[name] for name in names}


def time_rounds(steps: Mapping[str, Callable[[], object]], per_round: Mapping[str, int], rounds: int,
                timer: Timer) -> dict[str, list[tuple[float, float]]]:
    """Time every variant once per round, ``per_round[name]`` consecutive steps each, in `round_order`.

    Returns:
        Variant -> one ``(device ms per step, host ms per step)`` per round.

    Raises:
        ConfigError: Fewer than 2 rounds (no spread).

    Examples:
        >>> calls = []
        >>> fake = lambda fn, n: (calls.append((fn(), n)), (1.0, 1.0))[1]
        >>> out = time_rounds({"a": lambda: "a", "b": lambda: "b"}, {"a": 1, "b": 3}, 2, fake)
        >>> calls, out["b"]
        ([('a', 1), ('b', 3), ('a', 1), ('b', 3)], [(1.0, 1.0), (1.0, 1.0)])
    """
    if rounds < 2:
        raise ConfigError(f"rounds must be >= 2 to compute a spread, got {rounds}")
    names = list(steps)
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for r in range(rounds):
        for name in round_order(names, r):
            times[name].append(timer(steps[name], per_round[name]))
    return times


class StepComparison(Comparison):
    """A [Comparison][benchmarks.timing.Comparison] flagged above this case's `SPREAD_LIMIT` (1.10).

    Examples:
        >>> StepComparison("float32", "tf32", 2.0, 1.0, (2.0, 2.3)).noisy
        True
    """

    @property
    def noisy(self) -> bool:
        """True when the spread exceeds `SPREAD_LIMIT` (1.10)."""
        return self.spread > SPREAD_LIMIT


def compare_rounds(times: Mapping[str, list[tuple[float, float]]], baseline: str = "float32") -> dict[str, StepComparison]:
    """One comparison per variant against ``baseline`` from `time_rounds`' device times.

    Examples:
        >>> c = compare_rounds({"float32": [(10.0, 10.0), (11.0, 11.0)], "tf32": [(2.0, 2.0), (2.0, 2.0)]})["tf32"]
        >>> c.ratios, round(c.baseline_s * 1e3, 1)
        ((5.0, 5.5), 10.5)
    """
    base = [ms for ms, _ in times[baseline]]
    return {
        name: StepComparison(
            baseline=baseline,
            variant=name,
            baseline_s=statistics.median(base) / 1e3,
            variant_s=statistics.median(ms for ms, _ in rounds_) / 1e3,
            ratios=tuple(b / v for b, (v, _) in zip(base, rounds_)),
        )
        for name, rounds_ in times.items()
        if name != baseline
    }


def _scales(steps: Mapping[str, Step]) -> tuple[float, ...]:
    return tuple(float(s.scaler.get_scale()) for s in steps.values() if s.scaler is not None)


def run(cfg: BenchConfig) -> CaseResult:
    """Check each variant, warm up until steady, then time them in alternating rounds (see the module docstring).

    Raises:
        CudaUnavailableError: ``cfg.device`` is not ``"cuda"``.
        VariantNotEngagedError: A variant did not run as asked, or the two clocks disagree.
    """
    if cfg.device != "cuda":
        raise CudaUnavailableError("the gpu_transformer_step case measures a GPU; run it with --device cuda")
    device = cfg.target_device
    on_gpu = not cfg.stand_in
    shape = STAND_IN if cfg.stand_in else (QUICK if cfg.quick else FULL)
    round_ms = STAND_IN_ROUND_MS if cfg.stand_in else (QUICK_ROUND_MS if cfg.quick else ROUND_MS)
    n_check = 3 if cfg.quick else 5
    g = torch.Generator().manual_seed(0)
    x = torch.randn(shape.batch, shape.seq, shape.d_model, generator=g).to(device)
    y = torch.randint(0, shape.classes, (shape.batch, shape.seq), generator=g).to(device)
    block = make_block(shape, device)
    result = CaseResult(
        "gpu_transformer_step",
        "Transformer training step on a GPU, float32 vs TF32 and autocast",
        [
            Column("variant", "col.variant"),
            Column("logits", "col.logits"),
            *timed_columns("col.float32_ms", "col.variant_ms"),
            Column("step_tflops", "col.step_tflops", "sig3"),
            Column("steps_per_round", "col.steps_per_round"),
            Column("agreement", "col.timers_agree", "times"),
            Column("loss_diff", "col.loss_diff", "sci1"),
            Column("peak_gib", "col.peak_gib", "sig3"),
        ],
    )

    # 1. Checks, each on a fresh copy of the seeded model (freed before the next).
    losses, dtypes = {}, {}
    for name in VARIANTS:
        fresh = make_step(block, x, y, name)
        for _ in range(n_check):
            loss = fresh()
        losses[name], dtypes[name] = float(loss), fresh.logits_dtype
        check_engaged(name, dtypes[name], losses[name], losses.get("float32"), cfg.stand_in)
        del fresh, loss

    # 2. Warm-up of the shared model until a pass changes neither the allocator's reserve nor a scale.
    optimizer = torch.optim.AdamW(block.parameters(), lr=1e-4)
    steps = {name: make_step(block, x, y, name, optimizer=optimizer) for name in VARIANTS}
    timer: Timer = cuda_timer if on_gpu else cpu_timer

    def measure(name: str, step: Step) -> tuple[float, float | None]:
        if on_gpu:
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()
        ms, _ = timer(step, 1)
        return ms, (torch.cuda.max_memory_allocated() / 2**30 if on_gpu else None)

    def state() -> tuple[Any, ...]:
        return (torch.cuda.memory_reserved() if on_gpu else None, *_scales(steps))

    passes, settled, warm = warm_up(steps, measure, state)

    # 3. Rounds: each variant over enough consecutive steps for round_ms of device time.
    per_round = {name: steps_per_round(ms, round_ms) for name, (ms, _) in warm.items()}
    reserved, scales = state()[0], _scales(steps)
    times = time_rounds(steps, per_round, cfg.rounds, timer)
    grew = (state()[0] - reserved) / 2**20 if on_gpu else 0.0
    skipped = sum(round(math.log2(a / b)) for a, b in zip(scales, _scales(steps)) if b < a)

    flops = shape.flops()
    for name, c in compare_rounds(times).items():
        agreement = statistics.median(ev / host for ev, host in times[name] if host > 0)
        if on_gpu:
            check_timers(name, statistics.median(ev for ev, _ in times[name]),
                         statistics.median(host for _, host in times[name]))
        result.add_comparison(name, c)
        result.rows.append(
            {
                "variant": name,
                "logits": dtype_name(dtypes[name]),
                **comparison_cells(c),
                "step_tflops": flops / c.variant_s / 1e12,
                "steps_per_round": f"{per_round['float32']} / {per_round[name]}",
                "agreement": agreement,
                "loss_diff": abs(losses[name] - losses["float32"]),
                "peak_gib": warm[name][1],
            }
        )
    result.notes += [
        Msg("note.transformer_steps", layers=shape.layers, d_model=shape.d_model, heads=shape.heads, ff=shape.ff,
            classes=shape.classes, batch=shape.batch, seq=shape.seq, tokens=shape.tokens, tflop=flops / 1e12),
        Msg("note.loss_after_steps", steps=n_check),
        Msg("note.step_rounds", round_ms=round_ms, passes=passes, rounds=cfg.rounds, limit=SPREAD_LIMIT),
    ]
    if on_gpu:
        result.notes.append(Msg("note.step_peak_total", peak=warm["float32"][1]))
    if not settled:
        result.notes.append(Msg("note.warmup_unsettled", passes=passes))
    if grew > 0:
        result.notes.append(Msg("note.allocator_grew", mib=grew))
    if skipped:
        result.notes.append(Msg("note.scaler_skipped", skipped=skipped, _s="s" if skipped > 1 else ""))
    if cfg.stand_in:
        result.notes.append(Msg("note.stand_in"))
    return result


def check_engaged(name: str, logits_dtype: torch.dtype | None, loss: float, float32_loss: float | None,
                  stand_in: bool) -> None:
    """Raise unless ``name`` really ran as asked (see the module docstring).

    Examples:
        >>> check_engaged("autocast bfloat16", torch.bfloat16, 1.0, 1.0, False)
        >>> check_engaged("autocast bfloat16", torch.float32, 1.0, 1.0, False)
        Traceback (most recent call last):
        ...
        reference_impl.errors.VariantNotEngagedError: autocast bfloat16: the logits came out in torch.float32, not torch.bfloat16: autocast did not engage
    """
    expected = VARIANTS[name][0] or torch.float32
    if logits_dtype != expected:
        raise VariantNotEngagedError(
            f"{name}: the logits came out in {logits_dtype}, not {expected}: autocast did not engage"
        )
    if name == "tf32" and not stand_in and float32_loss is not None and loss == float32_loss:
        raise VariantNotEngagedError(
            "tf32: the loss after the check steps is bit-identical to float32's: TF32 did not engage "
            "(check torch.backends.cuda.matmul.fp32_precision)"
        )
