"""A transformer block's training step on a GPU: float32, TF32, float16 + GradScaler, bfloat16.

CUDA only (``--device cuda``; ``--dry-run`` runs the same code on a CPU stand-in with a tiny
block). One ``nn.TransformerEncoderLayer`` (d_model 1024, 16 heads,
feed-forward 4096) with a 1000-class head, batch 16 x 256 tokens (quick: batch 8 x 128). Each
variant's step (``zero_grad``, forward, cross-entropy, backward, AdamW step) is timed against
float32 in alternating rounds, with the step's peak memory above what stays allocated, and the
loss after a few steps from the same weights compared with float32's.

Each variant is checked to have engaged before it is published: the logits come out in the
autocast dtype, and TF32 (on a GPU) changes the loss, where a TF32 run identical to float32 would
mean the switch did nothing. TF32 is switched with the ``fp32_precision`` API.
"""

from __future__ import annotations

import copy
from contextlib import nullcontext
from typing import Callable

import torch
from torch import nn

from benchmarks.cases.amp_step import backward_and_step, step_peak_mib
from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns
from reference_impl._checks import dtype_name
from reference_impl.errors import CudaUnavailableError, VariantNotEngagedError

__all__ = ["VARIANTS", "make_block", "make_step", "run"]

#: Variant label -> (autocast dtype or None, CUDA matmul fp32_precision, uses a GradScaler).
VARIANTS: dict[str, tuple[torch.dtype | None, str, bool]] = {
    "float32": (None, "ieee", False),
    "tf32": (None, "tf32", False),
    "autocast float16 + GradScaler": (torch.float16, "ieee", True),
    "autocast bfloat16": (torch.bfloat16, "ieee", False),
}


def make_block(d_model: int, heads: int, ff: int, classes: int) -> nn.Module:
    """A transformer encoder layer with a classification head (seeded, so every variant starts equal)."""
    torch.manual_seed(0)
    return nn.Sequential(
        nn.TransformerEncoderLayer(d_model, heads, ff, dropout=0.0, batch_first=True), nn.Linear(d_model, classes)
    )


def make_step(
    model: nn.Module, x: torch.Tensor, y: torch.Tensor, variant: str
) -> tuple[Callable[[], torch.Tensor], dict[str, torch.dtype]]:
    """One training step of a fresh copy of ``model`` in ``variant`` (a key of `VARIANTS`).

    Returns:
        The step (returns the loss) and a dict that records the dtype of the logits it produced.

    Examples:
        >>> block = make_block(32, 4, 64, 5)
        >>> x, y = torch.randn(2, 6, 32), torch.randint(0, 5, (2, 6))
        >>> step, seen = make_step(block, x, y, "autocast bfloat16")
        >>> loss = step(); seen["logits"]
        torch.bfloat16
    """
    dtype, precision, scaled = VARIANTS[variant]
    device = x.device.type
    model = copy.deepcopy(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    scaler = torch.amp.GradScaler(device) if scaled else None
    seen: dict[str, torch.dtype] = {}

    def step() -> torch.Tensor:
        matmul = torch.backends.cuda.matmul
        previous = matmul.fp32_precision
        matmul.fp32_precision = precision
        try:
            opt.zero_grad(set_to_none=True)
            with torch.autocast(device, dtype=dtype) if dtype is not None else nullcontext():
                logits = model(x)
            seen["logits"] = logits.dtype
            loss = nn.functional.cross_entropy(logits.float().flatten(0, 1), y.flatten())
            backward_and_step(loss, opt, scaler)
            return loss.detach()
        finally:
            matmul.fp32_precision = previous

    return step, seen


def run(cfg: BenchConfig) -> CaseResult:
    """Time each variant's step against float32 and record its peak memory and loss difference.

    Raises:
        CudaUnavailableError: ``cfg.device`` is not ``"cuda"``.
    """
    if cfg.device != "cuda":
        raise CudaUnavailableError("the gpu_transformer_step case measures a GPU; run it with --device cuda")
    device = cfg.target_device
    if cfg.stand_in:
        batch, seq, d_model, heads, ff, classes = 2, 8, 32, 4, 64, 10
    else:
        batch, seq = (8, 128) if cfg.quick else (16, 256)
        d_model, heads, ff, classes = 1024, 16, 4096, 1000
    g = torch.Generator().manual_seed(0)
    x = torch.randn(batch, seq, d_model, generator=g).to(device)
    y = torch.randint(0, classes, (batch, seq), generator=g).to(device)
    block = make_block(d_model, heads, ff, classes).to(device)
    result = CaseResult(
        "gpu_transformer_step",
        "Transformer block training step on a GPU, float32 vs TF32 and autocast",
        [
            Column("variant", "col.variant"),
            Column("logits", "col.logits"),
            *timed_columns("col.float32_ms", "col.variant_ms"),
            Column("loss_diff", "col.loss_diff", "sci1"),
            Column("peak_mib", "col.peak_mib", "int"),
        ],
    )
    n_check = 3 if cfg.quick else 10
    losses, dtypes = {}, {}
    for name in VARIANTS:
        fresh, seen = make_step(block, x, y, name)
        for _ in range(n_check):
            loss = fresh()
        losses[name], dtypes[name] = float(loss), seen["logits"]
        check_engaged(name, dtypes[name], losses[name], losses.get("float32"), cfg.stand_in)
    steps = {name: make_step(block, x, y, name)[0] for name in VARIANTS}
    peaks = {name: step_peak_mib(step, device) for name, step in steps.items()}
    comparisons = cfg.compare(("float32", steps["float32"]), {n: s for n, s in steps.items() if n != "float32"})
    for name, c in comparisons.items():
        result.add_comparison(name, c)
        result.rows.append(
            {
                "variant": name,
                "logits": dtype_name(dtypes[name]),
                **comparison_cells(c),
                "loss_diff": abs(losses[name] - losses["float32"]),
                "peak_mib": peaks[name],
            }
        )
    result.notes += [
        Msg("note.transformer_step", d_model=d_model, heads=heads, ff=ff, classes=classes, batch=batch, seq=seq),
        Msg("note.loss_after_steps", steps=n_check),
        Msg("note.median_rounds", rounds=cfg.rounds),
    ]
    if peaks["float32"] is not None:  # no allocator statistics on the CPU stand-in
        result.notes.append(Msg("note.step_peak", peak=peaks["float32"]))
    if cfg.stand_in:
        result.notes.append(Msg("note.stand_in"))
    return result


def check_engaged(name: str, logits_dtype: torch.dtype, loss: float, float32_loss: float | None, stand_in: bool) -> None:
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
