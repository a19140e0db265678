"""Observers as small functions: what PyTorch's observer modules compute.

An observer watches float tensors during calibration and keeps a running
minimum and maximum; at the end the range becomes a scale and zero point
([`choose_qparams`][reference_impl.quantization.affine.choose_qparams]).
PyTorch wraps this in stateful ``nn.Module`` classes
(``MinMaxObserver``, ``MovingAverageMinMaxObserver``,
``PerChannelMinMaxObserver``); here each is a pure function of
``(state, new batch) -> new state``.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from reference_impl.errors import ConfigError
from reference_impl.quantization._checks import require_float_input

__all__ = ["Range", "minmax", "moving_average_minmax", "per_channel_minmax"]


@dataclass(frozen=True)
class Range:
    """Observed range (float32 tensors; 0-d per tensor, 1-d per channel).

    Attributes:
        min_val: Running minimum.
        max_val: Running maximum.
    """

    min_val: torch.Tensor
    max_val: torch.Tensor


def minmax(x: torch.Tensor, state: Range | None = None) -> Range:
    """Running min/max over every batch seen (``MinMaxObserver``).

    Args:
        x: A calibration batch.
        state: The range so far, or None for the first batch.

    Returns:
        The widened range.

    Raises:
        NonFiniteInputError: ``x`` holds NaN or inf.

    Examples:
        >>> r = minmax(torch.tensor([0.5, -1.0]))
        >>> r = minmax(torch.tensor([3.0]), r)
        >>> r.min_val.item(), r.max_val.item()
        (-1.0, 3.0)
    """
    require_float_input(x)
    lo, hi = torch.aminmax(x.detach().float())
    if state is None:
        return Range(lo, hi)
    return Range(torch.minimum(state.min_val, lo), torch.maximum(state.max_val, hi))


def moving_average_minmax(x: torch.Tensor, state: Range | None = None, averaging_constant: float = 0.01) -> Range:
    """Exponential moving average of each batch's min and max (``MovingAverageMinMaxObserver``).

    ``new = old + c * (batch - old)``: one outlier batch moves the range by only
    ``c`` of its excess, unlike [`minmax`][reference_impl.quantization.observers.minmax]
    which keeps it forever. The first batch sets the range directly.

    Args:
        x: A calibration batch.
        state: The range so far, or None for the first batch.
        averaging_constant: ``c`` in (0, 1].

    Returns:
        The updated range.

    Raises:
        ConfigError: ``averaging_constant`` outside (0, 1].
        NonFiniteInputError: ``x`` holds NaN or inf.

    Examples:
        >>> r = moving_average_minmax(torch.tensor([-1.0, 1.0]))
        >>> r = moving_average_minmax(torch.tensor([-1.0, 101.0]), r, averaging_constant=0.01)
        >>> round(r.max_val.item(), 4)
        2.0
    """
    if not 0 < averaging_constant <= 1:
        raise ConfigError(f"averaging_constant must be in (0, 1], got {averaging_constant}")
    require_float_input(x)
    lo, hi = torch.aminmax(x.detach().float())
    if state is None:
        return Range(lo, hi)
    c = averaging_constant
    return Range(state.min_val + c * (lo - state.min_val), state.max_val + c * (hi - state.max_val))


def per_channel_minmax(x: torch.Tensor, axis: int = 0, state: Range | None = None) -> Range:
    """Running min/max of each slice along ``axis`` (``PerChannelMinMaxObserver``).

    Args:
        x: A tensor, e.g. a Linear weight (out, in) with ``axis=0``.
        axis: The channel dimension.
        state: The per-channel range so far, or None.

    Returns:
        1-d min and max, one value per channel.

    Raises:
        ConfigError: The number of channels changed between calls.
        NonFiniteInputError: ``x`` holds NaN or inf.

    Examples:
        >>> r = per_channel_minmax(torch.tensor([[0.1, -0.2], [10.0, -20.0]]))
        >>> r.min_val.tolist(), r.max_val.tolist()
        ([-0.20000000298023224, -20.0], [0.10000000149011612, 10.0])
    """
    require_float_input(x)
    y = x.detach().float().movedim(axis, 0).flatten(1)
    lo, hi = torch.aminmax(y, dim=1)
    if state is None:
        return Range(lo, hi)
    if state.min_val.shape != lo.shape:
        raise ConfigError(f"channel count changed: {tuple(state.min_val.shape)} -> {tuple(lo.shape)}")
    return Range(torch.minimum(state.min_val, lo), torch.maximum(state.max_val, hi))
