"""One training step in float32 against the same step under autocast.

CPU: ``torch.autocast("cpu", dtype=torch.bfloat16)``. CUDA: float16 with a
``GradScaler`` and bfloat16. The GradScaler's own cost is measured separately
(the same autocast step with and without the scaler). Each step is
``zero_grad``, forward, cross-entropy, backward, SGD step on an MLP
1024-2048-2048-10 at batch 256 (CPU) or 4096-8192-8192-10 at batch 4096 (CUDA).
On CUDA the table also gives each step's peak memory (see ``step_peak_mib``).
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from benchmarks.cases._fmt import timed_columns
from benchmarks.config import BenchConfig
from benchmarks.report import CaseResult, Column, comparison_cells

__all__ = ["run", "step_peak_mib"]


def _mlp(d_in: int, hidden: int) -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(
        nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 10)
    )


def _make_step(model: nn.Module, x, y, device: str, dtype: torch.dtype | None, scaler: torch.amp.GradScaler | None):
    model = copy.deepcopy(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    seen: dict[str, torch.dtype] = {}

    def step() -> float:
        opt.zero_grad(set_to_none=True)
        if dtype is None:
            logits = model(x)
        else:
            with torch.autocast(device, dtype=dtype):
                logits = model(x)
        seen["logits"] = logits.dtype
        loss = nn.functional.cross_entropy(logits.float(), y)
        if scaler is None:
            loss.backward()
            opt.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(opt)
            scaler.update()
        return loss.detach()

    return step, seen


def step_peak_mib(step, device: str) -> float | None:
    """Peak memory one training step needs above what is held between steps, in MiB.

    ``torch.cuda.max_memory_allocated`` during one call of ``step``, minus
    ``torch.cuda.memory_allocated`` just before it: activations, gradients,
    autocast's low-precision weight copies and temporaries, but not the
    parameters and inputs that stay allocated anyway.

    Args:
        step: A zero-argument training step (run once before, so its state is steady).
        device: ``"cuda"`` to measure; any other device returns ``None``.

    Returns:
        MiB, or ``None`` where PyTorch has no allocator statistics (CPU).

    Examples:
        >>> step_peak_mib(lambda: None, "cpu") is None
        True
    """
    if device != "cuda":
        return None
    step()
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    step()
    torch.cuda.synchronize()
    return (torch.cuda.max_memory_allocated() - before) / 2**20


def run(cfg: BenchConfig) -> CaseResult:
    """Measure a training step: float32 vs autocast, and the GradScaler's overhead.

    Args:
        cfg: The benchmark settings.

    Returns:
        The ``amp_step`` case.

    Raises:
        RuntimeError: Autocast did not produce the expected dtype (the variant is not what it claims).
    """
    dev = cfg.device
    # A GPU needs a larger problem than launch overhead to show anything.
    d_in, hidden, batch = (4096, 8192, 4096) if dev == "cuda" else (1024, 2048, 256)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(batch, d_in, generator=g).to(dev)
    y = torch.randint(0, 10, (batch,), generator=g).to(dev)
    model = _mlp(d_in, hidden).to(dev)
    result = CaseResult(
        "amp_step",
        "Training step, float32 vs autocast",
        [
            Column("variant", "variant"),
            Column("logits", "logits dtype"),
            Column("baseline", "compared with"),
            *timed_columns("baseline ms", "variant ms"),
            Column("loss_diff", "loss after steps, diff vs baseline", lambda v: f"{v:.1e}"),
            Column("peak_mib", "step peak MiB (CUDA)", lambda v: f"{v:.0f}"),
        ],
    )
    if dev == "cpu":
        specs = {
            "autocast bfloat16": (torch.bfloat16, False),
            "autocast bfloat16 + GradScaler": (torch.bfloat16, True),
        }
        overhead = ("autocast bfloat16", "autocast bfloat16 + GradScaler")
    else:
        specs = {
            "autocast float16 + GradScaler": (torch.float16, True),
            "autocast float16, no scaler": (torch.float16, False),
            "autocast bfloat16": (torch.bfloat16, False),
        }
        overhead = ("autocast float16, no scaler", "autocast float16 + GradScaler")
    steps = {"float32": _make_step(model, x, y, dev, None, None)}
    for name, (dtype, scaled) in specs.items():
        steps[name] = _make_step(model, x, y, dev, dtype, torch.amp.GradScaler(dev) if scaled else None)

    # Correctness first, on fresh copies: the loss after a few steps from the same start.
    n_check = 3 if cfg.quick else 10
    losses = {}
    for name, (dtype, scaled) in [("float32", (None, False)), *specs.items()]:
        fresh, seen = _make_step(model, x, y, dev, dtype, torch.amp.GradScaler(dev) if scaled else None)
        for _ in range(n_check):
            loss = fresh()
        losses[name] = float(loss)
        expected = torch.float32 if dtype is None else dtype
        if seen["logits"] != expected:
            raise RuntimeError(f"{name}: logits came out as {seen['logits']}, expected {expected}")

    peaks = {name: step_peak_mib(step, dev) for name, (step, _) in steps.items()}
    comparisons = cfg.compare(("float32", steps["float32"][0]), {n: s for n, (s, _) in steps.items() if n != "float32"})
    for name, c in comparisons.items():
        result.comparisons[name] = c
        result.rows.append(
            {
                "variant": name,
                "logits": str(specs[name][0]).removeprefix("torch."),
                "baseline": "float32",
                **comparison_cells(c),
                "loss_diff": abs(losses[name] - losses["float32"]),
                "peak_mib": peaks[name],
            }
        )
    # GradScaler overhead: same autocast step with and without the scaler, alternated.
    plain, scaled = overhead
    c = cfg.compare((plain, steps[plain][0]), {scaled: steps[scaled][0]})[scaled]
    label = f"{scaled} vs {plain}"
    result.comparisons[label] = c
    result.rows.append(
        {
            "variant": scaled,
            "logits": str(specs[scaled][0]).removeprefix("torch."),
            "baseline": plain + " (scaler overhead)",
            **comparison_cells(c),
            "loss_diff": abs(losses[scaled] - losses[plain]),
            "peak_mib": peaks[scaled],
        }
    )
    result.notes.append(
        f"Step = zero_grad, forward, cross-entropy, backward, SGD step; MLP {d_in}-{hidden}-{hidden}-10, batch {batch}. "
        f"Loss difference after {n_check} steps from the same initial weights. Median of {cfg.rounds} alternating rounds."
    )
    if dev == "cpu":
        result.notes.append(
            "On CPU, bfloat16 needs no loss scaling; the GradScaler row only measures what the scaler costs."
        )
        result.notes.append("Peak memory is measured on CUDA only (PyTorch keeps no allocator statistics for CPU).")
    else:
        result.notes.append(
            f"float32 step peak: {peaks['float32']:.0f} MiB. Step peak = torch.cuda.max_memory_allocated during one "
            "step minus the memory allocated before it (activations, gradients, autocast's weight copies)."
        )
    return result
