"""Affine and symmetric quantization with plain integer tensors.

A quantized value is an integer ``q`` that stands for the real number
``scale * (q - zero_point)``. Quantizing rounds ``x / scale + zero_point`` to the
nearest integer (ties to even, like PyTorch) and clamps it to the dtype's range.
No quantized dtypes are used: ``q`` is an ordinary ``torch.int8``, ``torch.uint8``
or ``torch.int32`` tensor, so every step can be printed and checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from reference_impl._checks import require_tensor
from reference_impl.errors import ConfigError
from reference_impl.quantization._checks import (
    require_float_input,
    require_int_dtype,
    require_scale,
    require_zero_point,
)

__all__ = [
    "QParams",
    "choose_qparams",
    "dequantize_per_channel",
    "dequantize_per_tensor",
    "quantize_per_channel",
    "quantize_per_tensor",
    "quant_range",
]

#: PyTorch observers never let a scale fall below float32's machine epsilon.
EPS = float(torch.finfo(torch.float32).eps)


@dataclass(frozen=True)
class QParams:
    """Quantization parameters of a tensor (or of each channel).

    Attributes:
        scale: Step between neighbouring codes (float32 tensor, one value per channel or 0-d).
        zero_point: The integer code that stands for 0.0 (int64 tensor, same shape as ``scale``).
        dtype: Integer dtype the codes are stored in.
        qmin: Smallest code used.
        qmax: Largest code used.
    """

    scale: torch.Tensor
    zero_point: torch.Tensor
    dtype: torch.dtype
    qmin: int
    qmax: int


def quant_range(dtype: torch.dtype, reduce_range: bool = False) -> tuple[int, int]:
    """The integer range used for ``dtype``.

    Args:
        dtype: ``torch.int8``, ``torch.uint8`` or ``torch.int32``.
        reduce_range: Use one bit less (int8: -64..63, uint8: 0..127), as PyTorch's
            fbgemm/x86 activation observers do so that int16 intermediate sums of the
            older AVX2 kernels cannot overflow.

    Returns:
        ``(qmin, qmax)``.

    Raises:
        DtypeError: ``dtype`` is not one of the three integer dtypes.

    Examples:
        >>> quant_range(torch.int8), quant_range(torch.uint8, reduce_range=True)
        ((-128, 127), (0, 127))
    """
    qmin, qmax = require_int_dtype(dtype)
    if reduce_range:
        if dtype == torch.int32:
            raise ConfigError("reduce_range applies to 8-bit dtypes only")
        qmin, qmax = qmin // 2, qmax // 2
    return qmin, qmax


def choose_qparams(
    min_val: Any,
    max_val: Any,
    dtype: torch.dtype = torch.uint8,
    *,
    symmetric: bool = False,
    reduce_range: bool = False,
) -> QParams:
    """Scale and zero point that map ``[min_val, max_val]`` onto the integer range.

    This is what PyTorch's observers compute (``MinMaxObserver.calculate_qparams``):

    * the range is first widened to include 0, so that 0.0 gets an exact code
      (zero padding, ReLU outputs);
    * **affine**: ``scale = (max - min) / (qmax - qmin)`` and
      ``zero_point = qmin - round(min / scale)``;
    * **symmetric**: ``scale = max(|min|, max) / ((qmax - qmin) / 2)`` (127.5 for int8,
      not 127) and the zero
      point is the middle of the range (0 for int8, 128 for uint8);
    * the scale is never below float32's epsilon (a constant tensor still gets a valid scale).

    Args:
        min_val: Smallest observed value (number or tensor, one value per channel).
        max_val: Largest observed value (same shape as ``min_val``).
        dtype: Integer dtype of the codes.
        symmetric: Symmetric instead of affine mapping.
        reduce_range: Use a 7-bit range (see [`quant_range`][reference_impl.quantization.affine.quant_range]).

    Returns:
        The parameters.

    Raises:
        ConfigError: ``min_val > max_val`` or a bound is not finite.
        DtypeError: ``dtype`` is not an integer dtype this module supports.

    Examples:
        >>> p = choose_qparams(-1.0, 3.0, torch.uint8)
        >>> round(p.scale.item(), 6), p.zero_point.item()
        (0.015686, 64)
        >>> p = choose_qparams(-1.0, 3.0, torch.int8, symmetric=True)
        >>> round(p.scale.item(), 6), p.zero_point.item()
        (0.023529, 0)
    """
    qmin, qmax = quant_range(dtype, reduce_range)
    # float32 arithmetic, as PyTorch's observers.
    lo = torch.as_tensor(min_val, dtype=torch.float32)
    hi = torch.as_tensor(max_val, dtype=torch.float32)
    if not (bool(torch.isfinite(lo).all()) and bool(torch.isfinite(hi).all())):
        raise ConfigError("min_val and max_val must be finite; observe finite data first")
    if bool((lo > hi).any()):
        raise ConfigError(f"min_val must be <= max_val, got {lo.tolist()} > {hi.tolist()}")
    lo = torch.clamp(lo, max=0.0)
    hi = torch.clamp(hi, min=0.0)
    if symmetric:
        bound = torch.maximum(-lo, hi)
        scale = torch.clamp(bound / ((qmax - qmin) / 2), min=EPS)
        # The middle code: 0 for int8; 128 for uint8 (64 with reduce_range, where
        # PyTorch's observer keeps 128, outside the 0..127 range it quantizes to).
        middle = 0 if dtype == torch.int8 else (qmin + qmax + 1) // 2
        zero_point = torch.full_like(scale, middle, dtype=torch.int64)
    else:
        scale = torch.clamp((hi - lo) / float(qmax - qmin), min=EPS)
        # The subtraction in integers, as PyTorch's observers do it: in float32 (24 bits) an int32
        # zero point beyond 2**24 would be off by up to 64 codes.
        zero_point = (qmin - torch.round(lo / scale).to(torch.int64)).clamp(qmin, qmax)
    return QParams(scale, zero_point, dtype, qmin, qmax)


def quantize_per_tensor(x: torch.Tensor, scale: Any, zero_point: Any, dtype: torch.dtype) -> torch.Tensor:
    """Quantize with one scale and zero point for the whole tensor.

    ``q = clamp(round(x / scale) + zero_point, qmin, qmax)``, with round-half-to-even,
    computed in float32 as ``x * (1 / scale)``, bit for bit like torchao's ``quantize_affine``.
    The deprecated ``torch.quantize_per_tensor`` can differ by one step on the few values
    where ``x * (1 / scale)`` lands exactly on .5 in float32 but the exact quotient does not.

    Args:
        x: Floating-point tensor without NaN/inf.
        scale: Positive finite step.
        zero_point: Integer in the dtype's range.
        dtype: ``torch.int8``, ``torch.uint8`` or ``torch.int32``.

    Returns:
        Integer tensor of ``dtype`` (same shape and device as ``x``).

    Raises:
        NonFiniteInputError: ``x`` holds NaN or inf.
        ConfigError: ``scale <= 0``/NaN/inf, or ``zero_point`` outside the dtype's range.
        DtypeError: ``x`` is not floating point, or ``dtype`` is not supported.

    Examples:
        >>> quantize_per_tensor(torch.tensor([-1.0, 0.0, 0.26, 2.0, 9.0]), 0.5, 10, torch.uint8)
        tensor([ 8, 10, 11, 14, 28], dtype=torch.uint8)
    """
    require_float_input(x)
    qmin, qmax = require_int_dtype(dtype)
    s = require_scale(scale)
    z = require_zero_point(zero_point, qmin, qmax)
    if s.numel() != 1 or z.numel() != 1:
        raise ConfigError("quantize_per_tensor takes one scale and one zero point; use quantize_per_channel")
    return _quantize(x, s.reshape(()), z.reshape(()), qmin, qmax, dtype)


def dequantize_per_tensor(q: torch.Tensor, scale: Any, zero_point: Any) -> torch.Tensor:
    """Map integer codes back to float32: ``scale * (q - zero_point)``.

    Args:
        q: Integer tensor from [`quantize_per_tensor`][reference_impl.quantization.affine.quantize_per_tensor].
        scale: The scale used to quantize.
        zero_point: The zero point used to quantize.

    Returns:
        float32 tensor.

    Examples:
        >>> dequantize_per_tensor(torch.tensor([8, 10, 11, 14, 28], dtype=torch.uint8), 0.5, 10)
        tensor([-1.0000,  0.0000,  0.5000,  2.0000,  9.0000])
    """
    require_tensor(q, "q")
    s = require_scale(scale)
    z = torch.as_tensor(zero_point, dtype=torch.int64, device=q.device)
    return ((q.to(torch.int64) - z).to(torch.float32) * s.to(q.device, torch.float32)).to(torch.float32)


def quantize_per_channel(
    x: torch.Tensor, scales: Any, zero_points: Any, axis: int, dtype: torch.dtype
) -> torch.Tensor:
    """Quantize with one scale and zero point per slice along ``axis``.

    For a Linear weight of shape (out, in), ``axis=0`` gives each output row
    its own scale, so a row of small weights is not crushed by one large row.

    Args:
        x: Floating-point tensor without NaN/inf.
        scales: One positive scale per channel (``x.shape[axis]`` values).
        zero_points: One integer zero point per channel.
        axis: The channel dimension.
        dtype: ``torch.int8``, ``torch.uint8`` or ``torch.int32``.

    Returns:
        Integer tensor of ``dtype``.

    Raises:
        NonFiniteInputError: ``x`` holds NaN or inf.
        ConfigError: A scale is not finite and > 0, a zero point is outside the range,
            or the number of scales does not match ``x.shape[axis]``.
        DtypeError: Unsupported dtypes.

    Examples:
        >>> w = torch.tensor([[0.1, -0.2], [10.0, -20.0]])
        >>> quantize_per_channel(w, [0.2 / 127, 20.0 / 127], [0, 0], 0, torch.int8)
        tensor([[  64, -127],
                [  64, -127]], dtype=torch.int8)
    """
    require_float_input(x)
    qmin, qmax = require_int_dtype(dtype)
    s = require_scale(scales, "scales").flatten()
    z = require_zero_point(zero_points, qmin, qmax, "zero_points").flatten()
    axis = axis % x.dim()
    if s.numel() != x.shape[axis] or z.numel() != x.shape[axis]:
        raise ConfigError(
            f"need one scale and zero point per channel: x.shape[{axis}] = {x.shape[axis]}, "
            f"got {s.numel()} scales and {z.numel()} zero points"
        )
    shape = [1] * x.dim()
    shape[axis] = -1
    return _quantize(x, s.reshape(shape), z.reshape(shape), qmin, qmax, dtype)


def dequantize_per_channel(q: torch.Tensor, scales: Any, zero_points: Any, axis: int) -> torch.Tensor:
    """Inverse of [`quantize_per_channel`][reference_impl.quantization.affine.quantize_per_channel].

    Args:
        q: Integer codes.
        scales: One scale per channel.
        zero_points: One zero point per channel.
        axis: The channel dimension.

    Returns:
        float32 tensor.

    Examples:
        >>> q = torch.tensor([[64, -127], [64, -127]], dtype=torch.int8)
        >>> dequantize_per_channel(q, [0.2 / 127, 20.0 / 127], [0, 0], 0)
        tensor([[  0.1008,  -0.2000],
                [ 10.0787, -20.0000]])
    """
    require_tensor(q, "q")
    s = require_scale(scales, "scales").flatten()
    z = torch.as_tensor(zero_points, dtype=torch.int64).flatten()
    shape = [1] * q.dim()
    shape[axis % q.dim()] = -1
    s = s.reshape(shape).to(q.device, torch.float32)
    z = z.reshape(shape).to(q.device)
    # PyTorch's per-channel kernel subtracts in float32 (exact for 8-bit codes; for int32 codes beyond
    # 2**24 both round the same way), where its per-tensor kernel subtracts in integers.
    return (q.to(torch.float32) - z.to(torch.float32)) * s


def _quantize(x, scale, zero_point, qmin, qmax, dtype):
    # float32 arithmetic, as torchao's quantize_affine and PyTorch's quantize_val: multiply by
    # 1/scale, round half to even, add the zero point (in float32 too: exact for the 8-bit zero
    # points; for an int32 zero point beyond 2**24 PyTorch's sum is rounded, and so is this one),
    # clamp.
    inv_scale = 1.0 / scale.to(x.device, torch.float32)
    codes = torch.round(x.to(torch.float32) * inv_scale) + zero_point.to(x.device, torch.float32)
    return codes.clamp(qmin, qmax).to(torch.int64).clamp(qmin, qmax).to(dtype)
