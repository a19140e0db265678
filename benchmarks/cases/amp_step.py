"""One training step in float32 against the same step under autocast.

CPU: ``torch.autocast("cpu", dtype=torch.bfloat16)``. CUDA: float16 with a
``GradScaler`` and bfloat16. The GradScaler's own cost is measured separately
(the same autocast step with and without the scaler). Each step is
``zero_grad``, forward, cross-entropy, backward, SGD step on an MLP
1024-2048-2048-10 at batch 256 (CPU; 256-512-512-10 at batch 64 in quick mode) or
4096-8192-8192-10 at batch 4096 (CUDA).
On CUDA the table also gives each step's peak memory (see ``step_peak_mib``).
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from benchmarks.catalog import Msg, english
from benchmarks.config import BenchConfig
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns

__all__ = ["backward_and_step", "run", "step_peak_mib"]


def backward_and_step(loss: torch.Tensor, opt: torch.optim.Optimizer, scaler: torch.amp.GradScaler | None) -> None:
    """``loss.backward(); opt.step()``, through the GradScaler when there is one."""
    if scaler is None:
        loss.backward()
        opt.step()
    else:
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()


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
        backward_and_step(loss, opt, scaler)
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
    # A GPU needs a larger problem than launch overhead to show anything. Quick runs on a CPU use a
    # small MLP: the tests check the rows, dtypes and loss differences, not the speed, and an AVX2-only
    # CPU runs a bfloat16 step about 46x slower than float32.
    if dev == "cuda":
        d_in, hidden, batch = 4096, 8192, 4096
    else:
        d_in, hidden, batch = (256, 512, 64) if cfg.quick else (1024, 2048, 256)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(batch, d_in, generator=g).to(dev)
    y = torch.randint(0, 10, (batch,), generator=g).to(dev)
    model = _mlp(d_in, hidden).to(dev)
    result = CaseResult(
        "amp_step",
        "Training step, float32 vs autocast",
        [
            Column("variant", "col.variant"),
            Column("logits", "col.logits"),
            Column("baseline", "col.compared_with"),
            *timed_columns("col.baseline_ms", "col.variant_ms"),
            Column("loss_diff", "col.loss_diff", "sci1"),
            Column("peak_mib", "col.peak_mib", "int"),
        ],
    )
    bf16_plain = Msg("label.autocast", dtype="bfloat16")
    if dev == "cpu":
        bf16_scaled = Msg("label.autocast_scaler", dtype="bfloat16")
        labels = [bf16_plain, bf16_scaled]
        overhead = (bf16_plain, bf16_scaled)
    else:
        fp16_scaled = Msg("label.autocast_scaler", dtype="float16")
        fp16_plain = Msg("label.autocast_no_scaler", dtype="float16")
        labels = [fp16_scaled, fp16_plain, bf16_plain]
        overhead = (fp16_plain, fp16_scaled)
    # English label -> (label, autocast dtype, with a GradScaler)
    specs = {
        english(label): (label, getattr(torch, label.args["dtype"]), label.key == "label.autocast_scaler")
        for label in labels
    }
    steps = {"float32": _make_step(model, x, y, dev, None, None)}
    for name, (_, dtype, scaled) in specs.items():
        steps[name] = _make_step(model, x, y, dev, dtype, torch.amp.GradScaler(dev) if scaled else None)

    # Correctness first, on fresh copies: the loss after a few steps from the same start.
    n_check = 3 if cfg.quick else 10
    losses = {}
    for name, (_, dtype, scaled) in [("float32", (None, None, False)), *specs.items()]:
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
        label = specs[name][0]
        result.add_comparison(label, c)
        result.rows.append(
            {
                "variant": label,
                "logits": label.args["dtype"],
                "baseline": "float32",
                **comparison_cells(c),
                "loss_diff": abs(losses[name] - losses["float32"]),
                "peak_mib": peaks[name],
            }
        )
    # GradScaler overhead: same autocast step with and without the scaler, alternated.
    plain_label, scaled_label = overhead
    plain, scaled = english(plain_label), english(scaled_label)
    c = cfg.compare((plain, steps[plain][0]), {scaled: steps[scaled][0]})[scaled]
    result.add_comparison(f"{scaled} vs {plain}", c)
    result.rows.append(
        {
            "variant": scaled_label,
            "logits": scaled_label.args["dtype"],
            "baseline": Msg("label.scaler_overhead", variant=plain_label),
            **comparison_cells(c),
            "loss_diff": abs(losses[scaled] - losses[plain]),
            "peak_mib": peaks[scaled],
        }
    )
    result.notes += [
        Msg("note.amp_step", mlp=f"{d_in}-{hidden}-{hidden}-10", batch=batch),
        Msg("note.loss_after_steps", steps=n_check),
        Msg("note.median_rounds", rounds=cfg.rounds),
    ]
    if dev == "cpu":
        result.notes += [Msg("note.cpu_bfloat16_no_scaling"), Msg("note.peak_cuda_only")]
    else:
        result.notes.append(Msg("note.step_peak", peak=peaks["float32"]))
    return result
