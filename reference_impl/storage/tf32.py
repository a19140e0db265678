"""TF32 rounding of float32 values, written with integer bit operations.

TF32 ("TensorFloat-32") is the input format of NVIDIA tensor cores (Ampere and later)
for float32 matrix multiplications: float32's sign and 8-bit exponent with only 10 of
its 23 mantissa bits, the precision of float16 with the range of float32::

    float32  sign(1) exponent(8) mantissa(23)
    tf32     sign(1) exponent(8) mantissa(10)   (stored in a float32, low 13 bits 0)

A TF32 matmul rounds its float32 inputs to TF32, multiplies them and accumulates the
products in float32. Rounding the inputs is where the error comes from, so
``float32_to_tf32(a, ...) @ float32_to_tf32(b, ...)`` computed in float32 on a CPU shows
the error a TF32 matmul introduces (up to the order of the float32 additions).

Which rounding? Three are documented:

* ``"nearest_away"``: round to nearest, ties away from zero. This is the PTX
  conversion instruction ``cvt.rna.tf32.f32``, and also what CUTLASS's
  ``tfloat32_t(float)`` constructor gives: its ``round_half_ulp_truncate`` adds half a
  TF32 unit (``0x1000``) to the float32 pattern and leaves the low 13 bits for the
  tensor core to ignore.
* ``"nearest_even"``: round to nearest, ties to even (IEEE 754's default, CUTLASS's
  ``NumericConverter<tfloat32_t, float, FloatRoundStyle::round_to_nearest>``).
* ``"toward_zero"``: drop the low 13 bits (truncation), what a tensor core does with a
  float32 operand nobody rounded.

NVIDIA does not document which of these cuBLAS applies inside its kernels. The three
differ by at most one TF32 unit in the last place, and the two "nearest" modes only on
exact ties (low 13 bits exactly ``0x1000``). ``"nearest_even"`` is checked against
PyTorch on CPU: for every float32 input it equals rounding to float16's 10 mantissa
bits (``x.half()``) after scaling by a power of two into float16's range (see the test
suite, whose opt-in slow test covers all 2**32 patterns).

Infinities stay infinite in every mode; NaN stays NaN (a quiet NaN with the same sign
and the top payload bits). In the two "nearest" modes a value within half a TF32 unit
of ``2**128`` rounds to inf, as float32 rounding would.
"""

from __future__ import annotations

from typing import Literal

import torch

from reference_impl.errors import ConfigError
from reference_impl.storage._checks import require_dtype, require_tensor
from reference_impl.storage.rounding import (
    F32_INF,
    F32_MAGNITUDE_MASK,
    F32_MANTISSA_BITS,
    F32_QUIET_BIT,
    F32_SIGN_BIT,
    _round_shift_right,
)

__all__ = ["TF32_ROUNDINGS", "float32_to_tf32"]

TF32_MANTISSA_BITS = 10
TF32_DROPPED_BITS = F32_MANTISSA_BITS - TF32_MANTISSA_BITS  # 13

#: The rounding modes [`float32_to_tf32`][reference_impl.storage.tf32.float32_to_tf32] accepts.
TF32_ROUNDINGS = ("nearest_even", "nearest_away", "toward_zero")

TF32Rounding = Literal["nearest_even", "nearest_away", "toward_zero"]


def float32_to_tf32(x: torch.Tensor, *, rounding: TF32Rounding) -> torch.Tensor:
    """Round float32 values to TF32 (10 mantissa bits, float32's exponent).

    Works on the int32 view of ``x``: ``|x|``'s pattern ``exponent|mantissa`` loses
    its low 13 bits, rounded as ``rounding`` says, and the 13 zero bits are put back
    so that the result is again a float32 tensor. Because the exponent sits directly
    above the mantissa, a rounding carry moves to the next power of two (and from
    the largest binade to inf) with no special case, and float32 subnormals are
    rounded on their own grid of ``2**-136``.

    Args:
        x: float32 tensor of any shape, on any device.
        rounding: ``"nearest_even"``, ``"nearest_away"`` (PTX ``cvt.rna.tf32.f32``)
            or ``"toward_zero"``. Keyword only, no default: which one a GPU kernel
            uses is not documented (see the module description).

    Returns:
        float32 tensor of the same shape and device whose values are TF32 values
        (the low 13 bits of every finite result are 0).

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not float32.
        ConfigError: ``rounding`` is not one of
            ``TF32_ROUNDINGS``.

    Examples:
        >>> import torch
        >>> one_ulp = 2.0**-10  # TF32's machine epsilon
        >>> x = torch.tensor([1 + one_ulp / 2, 1 + 3 * one_ulp / 2, 1 + 0.7 * one_ulp, 0.1])
        >>> float32_to_tf32(x, rounding="nearest_even").tolist()
        [1.0, 1.001953125, 1.0009765625, 0.0999755859375]
        >>> float32_to_tf32(x, rounding="nearest_away").tolist()
        [1.0009765625, 1.001953125, 1.0009765625, 0.0999755859375]
        >>> float32_to_tf32(x, rounding="toward_zero").tolist()
        [1.0, 1.0009765625, 1.0, 0.0999755859375]
    """
    require_tensor(x)
    require_dtype(x, torch.float32)
    if rounding not in TF32_ROUNDINGS:
        raise ConfigError(
            f"rounding must be one of {', '.join(map(repr, TF32_ROUNDINGS))}, got {rounding!r}"
        )
    bits = x.view(torch.int32)
    sign = bits & F32_SIGN_BIT
    magnitude = bits & F32_MAGNITUDE_MASK

    if rounding == "nearest_even":
        kept = _round_shift_right(magnitude, TF32_DROPPED_BITS)
    elif rounding == "nearest_away":
        # Add one half of the last kept bit, then truncate: a tie always carries.
        kept = (magnitude + (1 << (TF32_DROPPED_BITS - 1))) >> TF32_DROPPED_BITS
    else:
        kept = magnitude >> TF32_DROPPED_BITS
    rounded = kept << TF32_DROPPED_BITS

    # inf and NaN: keep inf (its low bits are 0 already); NaN becomes a quiet NaN
    # with the top 10 payload bits, so that it cannot turn into inf.
    quiet_nan = (magnitude | F32_QUIET_BIT) & ~((1 << TF32_DROPPED_BITS) - 1)
    special = torch.where(magnitude == F32_INF, F32_INF, quiet_nan)
    rounded = torch.where(magnitude >= F32_INF, special, rounded)
    return (sign | rounded).view(torch.float32)
