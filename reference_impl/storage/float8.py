"""float32 <-> float8 (e4m3fn, e5m2) conversion written with integer bit operations.

The two 8-bit formats PyTorch stores, from the most significant bit to the least::

    float8_e4m3fn  sign(1) exponent(4) mantissa(3)   bias 7    max 448     no inf
    float8_e5m2    sign(1) exponent(5) mantissa(2)   bias 15   max 57344   inf like float16

e5m2 is float16 with the low 8 bits cut off: it keeps float16's exponent range,
infinities and NaNs. e4m3fn ("fn": finite, NaN only at the all-ones pattern) gives up
infinities to gain one more binade: exponent field 15 holds normal numbers 256..448,
and only ``S.1111.111`` (``0x7F``/``0xFF``) is NaN.

Rounding is round to nearest, ties to even, exactly as in
[`rounding`][reference_impl.storage.rounding] for float16. What differs between
implementations is **overflow**, a value whose rounded magnitude is above the largest
finite one (and an infinite input):

* saturating mode clamps it to the largest finite value, ±448 or ±57344;
* non-saturating mode gives NaN for e4m3fn (it has no inf) and ±inf for e5m2.

PyTorch 2.13 (checked on CPU, for contiguous and strided tensors): ``.to(torch.float8_e4m3fn)``
**saturates** (``1e6``, ``inf`` -> 448; ``-inf`` -> -448), and ``.to(torch.float8_e5m2)``
does **not** (``61440``, ``inf`` -> inf). The e4m3fn saturation arrived with PyTorch pull
request 178817 (merged April 2026, after the 2.12 branch cut: torch 2.13), in the conversion
function that CPU code and CUDA kernels share; with torch 2.11 the e4m3fn cast gives NaN
instead, on the CPU and on CUDA (checked on an H100, 2026-11-26). So pass
``saturate=True`` for e4m3fn with torch 2.13 (``saturate=False`` before it) and
``saturate=False`` for e5m2 to reproduce the installed torch.
Libraries such as torchao scale and clamp before casting, so they never rely on either
behaviour.

NaN becomes ``S.1111.111`` in both formats (``0x7F``, or ``0xFF`` with the sign), as
PyTorch does. Decoding returns the float32 NaN bits PyTorch returns: ``0x7FF0_0000``
for e4m3fn and the quiet NaN ``0x7FC0_0000 | mantissa << 21`` for e5m2, each with the
sign.

Bit patterns are ``torch.uint8`` tensors: ``bits.view(torch.float8_e4m3fn)``
reinterprets them. All functions are element-wise tensor expressions that run on any
device and any shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from reference_impl.errors import ConfigError, DtypeError
from reference_impl.storage._checks import require_dtype, require_dtype_object, require_tensor
from reference_impl.storage.rounding import (
    F32_EXPONENT_BIAS,
    F32_IMPLICIT_ONE,
    F32_INF,
    F32_MAGNITUDE_MASK,
    F32_MANTISSA_BITS,
    F32_MANTISSA_MASK,
    F32_QUIET_BIT,
    F32_SIGN_BIT,
    _round_shift_right,
)

__all__ = [
    "Float8Format",
    "float32_to_float8",
    "float32_to_float8_bits",
    "float8_format",
    "float8_to_float32",
]

F8_SIGN_BIT = 0x80
F8_NAN = 0x7F  # S.1111.111 is NaN in both formats (PyTorch's choice for e5m2 too)


@dataclass(frozen=True)
class Float8Format:
    """The bit layout of one float8 format.

    Attributes:
        dtype: ``torch.float8_e4m3fn`` or ``torch.float8_e5m2``.
        exponent_bits: Width of the exponent field (4 or 5).
        mantissa_bits: Width of the mantissa field (3 or 2).
        bias: Exponent bias (7 or 15).
        max_code: Bit pattern of the largest finite magnitude (``0x7E`` = 448 or
            ``0x7B`` = 57344).
        has_inf: Whether the format has infinities (only e5m2).
    """

    dtype: torch.dtype
    exponent_bits: int
    mantissa_bits: int
    bias: int
    max_code: int
    has_inf: bool

    @property
    def overflow_code(self) -> int:
        """Pattern of a non-saturated overflow: NaN (``0x7F``) for e4m3fn, inf (``0x7C``) for e5m2."""
        return 0x7C if self.has_inf else F8_NAN


_FORMATS = {
    torch.float8_e4m3fn: Float8Format(torch.float8_e4m3fn, 4, 3, 7, 0x7E, has_inf=False),
    torch.float8_e5m2: Float8Format(torch.float8_e5m2, 5, 2, 15, 0x7B, has_inf=True),
}


def float8_format(dtype: torch.dtype) -> Float8Format:
    """Return the bit layout of a float8 dtype.

    Args:
        dtype: ``torch.float8_e4m3fn`` or ``torch.float8_e5m2``.

    Returns:
        Its [Float8Format][reference_impl.storage.float8.Float8Format].

    Raises:
        DtypeError: ``dtype`` is not a ``torch.dtype``, or is another float8 variant
            (the AMD ``fnuz`` formats, ``float8_e8m0fnu``) or not a float8 dtype.

    Examples:
        >>> import torch
        >>> fmt = float8_format(torch.float8_e4m3fn)
        >>> fmt.exponent_bits, fmt.mantissa_bits, fmt.bias, hex(fmt.max_code)
        (4, 3, 7, '0x7e')
    """
    require_dtype_object(dtype)
    if dtype not in _FORMATS:
        raise DtypeError(
            f"dtype must be torch.float8_e4m3fn or torch.float8_e5m2, got {dtype}; "
            "the fnuz and e8m0 variants have other special values and are not covered"
        )
    return _FORMATS[dtype]


def _require_saturate(saturate: object) -> bool:
    if not isinstance(saturate, bool):
        raise ConfigError(
            f"saturate must be True or False, got {saturate!r}; PyTorch 2.13's "
            ".to() saturates for float8_e4m3fn and not for float8_e5m2"
        )
    return saturate


def float32_to_float8_bits(x: torch.Tensor, dtype: torch.dtype, *, saturate: bool) -> torch.Tensor:
    """Round float32 values to float8 and return the float8 bit patterns.

    The same three cases as
    [`float32_to_float16_bits`][reference_impl.storage.rounding.float32_to_float16_bits],
    with the field widths of the target format (``M`` mantissa bits, bias ``B``):

    1. Normal results: drop ``23 - M`` mantissa bits of ``|x|``'s pattern with
       round-to-nearest-even and move the exponent from bias 127 to bias ``B``.
       Rounding may carry into the exponent (the next power of two).
    2. Subnormal results (``|x|`` below the smallest normal, ``2**-6`` for e4m3fn
       and ``2**-14`` for e5m2): the answer is ``|x|`` divided by the smallest
       subnormal (``2**-9``, ``2**-16``), rounded to nearest even. Ties go to the
       even neighbour, so ``2**-10`` becomes 0 in e4m3fn.
    3. Overflow: a rounded magnitude above ``max_code`` (448 or 57344), and
       every infinity. With ``saturate=True`` it becomes ``±max``; otherwise NaN
       (e4m3fn) or ``±inf`` (e5m2). The threshold is the halfway point to the
       next step: 464 rounds to 448 (the tie goes to the even 448) while 465
       overflows; for e5m2, 61440 overflows.

    NaN becomes ``0x7F`` with the input's sign. The sign of every other input is
    copied, so ``-0.0`` and negative values that round to zero give ``0x80``.

    Compared with PyTorch 2.13 and 2.11 on CPU (see the test suite): every float16 and
    bfloat16 value and float32 values on both sides of every rounding boundary
    and tie give the bits of ``x.to(dtype)``, NaNs included, when ``saturate`` is
    False for e5m2, and for e4m3fn True with torch 2.13 and False with 2.11 (the
    saturating cast came in 2.13).

    Args:
        x: float32 tensor of any shape, on any device.
        dtype: ``torch.float8_e4m3fn`` or ``torch.float8_e5m2``.
        saturate: Clamp overflows to the largest finite value (True) or turn
            them into NaN / inf (False). Keyword only, no default: the two
            formats behave differently in PyTorch.

    Returns:
        ``torch.uint8`` tensor of the same shape and device holding the float8
        bit patterns; ``.view(dtype)`` turns it into float8 values.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not float32, or ``dtype`` is not one of the two formats.
        ConfigError: ``saturate`` is not a bool.

    Examples:
        >>> import torch
        >>> x = torch.tensor([1.0, 464.0, 465.0, float("inf"), 2.0**-10, -0.3])
        >>> e4m3 = torch.float8_e4m3fn
        >>> [hex(b) for b in float32_to_float8_bits(x, e4m3, saturate=True).tolist()]
        ['0x38', '0x7e', '0x7e', '0x7e', '0x0', '0xaa']
        >>> [hex(b) for b in float32_to_float8_bits(x, e4m3, saturate=False).tolist()]
        ['0x38', '0x7e', '0x7f', '0x7f', '0x0', '0xaa']
        >>> torch_saturates = torch.__version__ >= "2.13"  # e4m3fn casts gave NaN out of range before 2.13
        >>> ours = float32_to_float8_bits(x, e4m3, saturate=torch_saturates)
        >>> torch.equal(ours, x.to(e4m3).view(torch.uint8))
        True
    """
    require_tensor(x)
    require_dtype(x, torch.float32)
    fmt = float8_format(dtype)
    saturate = _require_saturate(saturate)
    bits = x.view(torch.int32)

    # Split the float32 pattern into its fields.
    sign = (bits >> 24) & F8_SIGN_BIT  # bit 31 moved to bit 7
    magnitude = bits & F32_MAGNITUDE_MASK
    exponent = magnitude >> F32_MANTISSA_BITS  # biased exponent field, 0..255
    mantissa = magnitude & F32_MANTISSA_MASK
    dropped_bits = F32_MANTISSA_BITS - fmt.mantissa_bits  # 20 or 21

    # Case 1: normal float8. "exponent|mantissa" shifted right by the dropped bits
    # is "float32 exponent | float8 mantissa"; then move the exponent to bias B.
    rebias = (F32_EXPONENT_BIAS - fmt.bias) << fmt.mantissa_bits
    normal = _round_shift_right(magnitude, dropped_bits) - rebias

    # Case 2: subnormal float8. |x| = significand * 2**(exponent - 150) and the
    # smallest subnormal is 2**(1 - B - M), so |x| / smallest subnormal =
    # significand / 2**(151 - B - M - exponent). Shifts of 26 or more give 0
    # (significand < 2**24), so capping at 30 keeps "1 << shift" inside int32.
    significand = mantissa | F32_IMPLICIT_ONE
    shift = torch.clamp(
        151 - fmt.bias - fmt.mantissa_bits - exponent, min=dropped_bits + 1, max=30
    )
    subnormal = _round_shift_right(significand, shift)

    smallest_normal_exponent = 1 - fmt.bias + F32_EXPONENT_BIAS  # 121 or 113
    code = torch.where(exponent >= smallest_normal_exponent, normal, subnormal)

    # Case 3: overflow (infinities included: their "normal" code is huge) and NaN.
    overflow_code = fmt.max_code if saturate else fmt.overflow_code
    code = torch.where(code > fmt.max_code, overflow_code, code)
    code = torch.where(magnitude > F32_INF, F8_NAN, code)
    return (sign | code).to(torch.uint8)


def float32_to_float8(x: torch.Tensor, dtype: torch.dtype, *, saturate: bool) -> torch.Tensor:
    """Round float32 values to float8 with integer bit operations.

    See [`float32_to_float8_bits`][reference_impl.storage.float8.float32_to_float8_bits]
    for the algorithm and the overflow modes.

    Args:
        x: float32 tensor of any shape, on any device.
        dtype: ``torch.float8_e4m3fn`` or ``torch.float8_e5m2``.
        saturate: Clamp overflows to the largest finite value (True) or turn
            them into NaN / inf (False).

    Returns:
        Tensor of ``dtype`` with the same shape and device.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not float32, or ``dtype`` is not one of the two formats.
        ConfigError: ``saturate`` is not a bool.

    Examples:
        >>> import torch
        >>> x = torch.tensor([0.1, 300.0, 1000.0])
        >>> float32_to_float8(x, torch.float8_e4m3fn, saturate=False).float().tolist()
        [0.1015625, 288.0, nan]
        >>> float32_to_float8(x, torch.float8_e5m2, saturate=False).float().tolist()
        [0.09375, 320.0, 1024.0]
    """
    return float32_to_float8_bits(x, dtype, saturate=saturate).view(dtype)


def float8_to_float32(x: torch.Tensor) -> torch.Tensor:
    """Widen float8 values to float32 exactly, with integer bit operations.

    Every float8 value is a float32 value, so only the fields move:

    * normal: exponent ``e`` (bias ``B``) becomes ``e + 127 - B`` and the
      mantissa moves to the top of float32's 23 bits;
    * subnormal ``m * 2**(1 - B - M)``: with ``p`` the position of ``m``'s highest
      set bit it is ``1.rest * 2**(p + 1 - B - M)``, a float32 normal number;
    * zero keeps its sign; e5m2's inf becomes float32 inf;
    * NaN: e4m3fn's ``S.1111.111`` becomes ``0x7FF0_0000`` (with the sign), e5m2's
      NaNs the quiet NaN ``0x7FC0_0000 | m << 21``: the bits PyTorch 2.13 returns.

    Args:
        x: ``torch.float8_e4m3fn`` or ``torch.float8_e5m2`` tensor of any shape.

    Returns:
        float32 tensor of the same shape and device, equal to ``x.float()`` bit
        for bit (all 256 codes of both formats are checked in the test suite).

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not one of the two float8 dtypes (for uint8 bit
            patterns call ``.view(torch.float8_e4m3fn)`` first).

    Examples:
        >>> import torch
        >>> codes = torch.tensor([0x01, 0x08, 0x38, 0x7E, 0xFF], dtype=torch.uint8)
        >>> float8_to_float32(codes.view(torch.float8_e4m3fn)).tolist()
        [0.001953125, 0.015625, 1.0, 448.0, nan]
    """
    require_tensor(x)
    if x.dtype not in _FORMATS:
        hint = (
            "if it holds float8 bit patterns call .view(torch.float8_e4m3fn) or "
            ".view(torch.float8_e5m2)"
            if x.dtype == torch.uint8
            else "cast with .to(torch.float8_e4m3fn) first"
        )
        raise DtypeError(
            f"x must be a torch.float8_e4m3fn or torch.float8_e5m2 tensor, got {x.dtype}; {hint}"
        )
    fmt = _FORMATS[x.dtype]
    m_bits = fmt.mantissa_bits
    code = x.view(torch.uint8).to(torch.int32)

    is_negative = (code & F8_SIGN_BIT) != 0
    exponent = (code >> m_bits) & ((1 << fmt.exponent_bits) - 1)
    mantissa = code & ((1 << m_bits) - 1)
    mantissa_to_f32 = F32_MANTISSA_BITS - m_bits

    rebias = F32_EXPONENT_BIAS - fmt.bias
    normal = ((exponent + rebias) << F32_MANTISSA_BITS) | (mantissa << mantissa_to_f32)

    # Position of the highest set bit of a subnormal mantissa (a loop over the
    # mantissa's bit positions, not over elements).
    top_bit = torch.zeros_like(mantissa)
    for k in range(1, m_bits):
        top_bit += (mantissa >= (1 << k)).to(mantissa.dtype)
    sub_exponent = top_bit + 1 - fmt.bias - m_bits + F32_EXPONENT_BIAS
    sub_mantissa = (mantissa - (1 << top_bit)) << (F32_MANTISSA_BITS - top_bit)
    subnormal = (sub_exponent << F32_MANTISSA_BITS) | sub_mantissa
    subnormal = torch.where(mantissa == 0, 0, subnormal)  # +-0 stays 0

    magnitude = torch.where(exponent == 0, subnormal, normal)
    all_ones = (1 << fmt.exponent_bits) - 1
    if fmt.has_inf:  # e5m2: exponent all ones is inf (mantissa 0) or NaN
        quiet_nan = F32_INF | F32_QUIET_BIT | (mantissa << mantissa_to_f32)
        special = torch.where(mantissa == 0, F32_INF, quiet_nan)
        magnitude = torch.where(exponent == all_ones, special, magnitude)
    else:  # e4m3fn: only S.1111.111 is NaN
        is_nan = (code & 0x7F) == F8_NAN
        magnitude = torch.where(is_nan, F32_INF | (mantissa << mantissa_to_f32), magnitude)
    bits = torch.where(is_negative, magnitude | F32_SIGN_BIT, magnitude)
    return bits.view(torch.float32)
