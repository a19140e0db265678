"""float32 <-> float16 / bfloat16 conversion written with integer bit operations.

PyTorch converts with one machine instruction or a C++ helper; this module does the
same job with shifts, masks and adds on the int32 bit pattern, so that every step of
IEEE 754 "round to nearest, ties to even" is visible. The test suite checks it bit for
bit against ``x.half()`` and ``x.bfloat16()``, and
[`exhaustive_check`][reference_impl.storage.rounding.exhaustive_check] compares all 2**32
float32 bit patterns.

The three formats, from the most significant bit to the least::

    float32   sign(1) exponent(8) mantissa(23)   bias 127
    float16   sign(1) exponent(5) mantissa(10)   bias 15
    bfloat16  sign(1) exponent(8) mantissa(7)    bias 127

A normal number is ``(-1)**sign * 1.mantissa * 2**(exponent - bias)``. Exponent field 0
holds zero and the subnormals ``0.mantissa * 2**(1 - bias)``; the all-ones exponent
field holds infinity (mantissa 0) and NaN (mantissa not 0).

Bit patterns are returned as ``torch.int16`` tensors, because PyTorch has no uint16
arithmetic on every device: ``bits.view(torch.float16)`` reinterprets them. An int16
is signed, so the patterns 0x8000..0xFFFF (the negative numbers) print as
-32768..-1; ``bits.to(torch.int32) & 0xFFFF`` shows them unsigned.

NaN: the narrowing functions return a quiet NaN with the input's sign and the top
mantissa bits of its payload (the IEEE 754 recommendation, and what x86 F16C and
AVX512-BF16 instructions do). PyTorch itself is not consistent here, so compare NaNs
as "both NaN" (see
[`float32_to_float16_bits`][reference_impl.storage.rounding.float32_to_float16_bits] and
[`float32_to_bfloat16_bits`][reference_impl.storage.rounding.float32_to_bfloat16_bits]
for what PyTorch 2.13 does).

All functions are element-wise tensor expressions: they run on any device and any
shape, with no Python loop over elements.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import torch

from reference_impl.errors import ConfigError
from reference_impl.storage._checks import require_dtype, require_tensor

__all__ = [
    "ExhaustiveSummary",
    "bfloat16_to_float32",
    "exhaustive_check",
    "float16_to_float32",
    "float32_to_bfloat16",
    "float32_to_bfloat16_bits",
    "float32_to_float16",
    "float32_to_float16_bits",
]

# ---------------------------------------------------------------------------
# Format constants (as plain Python ints, so they work on every device).
# ---------------------------------------------------------------------------
F32_MANTISSA_BITS = 23
F32_EXPONENT_BIAS = 127
F32_SIGN_BIT = -(2**31)  # 0x8000_0000 written as a signed int32
F32_MAGNITUDE_MASK = 0x7FFF_FFFF  # every bit but the sign
F32_MANTISSA_MASK = 0x007F_FFFF
F32_IMPLICIT_ONE = 0x0080_0000  # the leading 1 of a normal number, just above the mantissa
F32_EXPONENT_ALL_ONES = 0xFF  # exponent field of inf and NaN
F32_INF = 0x7F80_0000
F32_QUIET_BIT = 0x0040_0000  # top mantissa bit: set in a quiet NaN

F16_MANTISSA_BITS = 10
F16_EXPONENT_BIAS = 15
F16_SIGN_BIT = 0x8000
F16_MANTISSA_MASK = 0x03FF
F16_INF = 0x7C00
F16_QUIET_NAN = 0x7E00  # exponent all ones + quiet bit

BF16_QUIET_NAN = 0x7FC0

# float32 keeps 13 more mantissa bits than float16 and 16 more than bfloat16.
F32_TO_F16_DROPPED_BITS = F32_MANTISSA_BITS - F16_MANTISSA_BITS  # 13
F32_TO_BF16_DROPPED_BITS = 16

# Smallest float32 exponent field whose value is a float16 normal: 2**-14 has
# exponent field -14 + 127 = 113.
F16_SMALLEST_NORMAL_F32_EXPONENT = 1 - F16_EXPONENT_BIAS + F32_EXPONENT_BIAS  # 113


def _round_shift_right(value: torch.Tensor, shift: int | torch.Tensor) -> torch.Tensor:
    """Divide non-negative integers by ``2**shift``, rounding to nearest, ties to even.

    This is the whole of IEEE rounding. The bits shifted out are compared with
    "one half" of the last kept bit:

    * below one half: round down (plain truncation, ``value >> shift``);
    * above one half: round up (add 1 to the kept part);
    * exactly one half (a tie): round to the even neighbour, i.e. round up only if
      the kept part is odd.

    Adding 1 may carry out of the mantissa into the exponent (1.111...1 rounds up to
    10.000...0). Because the exponent sits directly above the mantissa, the carry
    produces the next power of two, and from the largest finite number it produces
    the infinity pattern: no special case is needed.

    Args:
        value: Non-negative int32 tensor.
        shift: Number of low bits to drop, 1 to 30 (an int, or an int32 tensor
            broadcastable with ``value``).

    Returns:
        int32 tensor ``round_half_even(value / 2**shift)``.
    """
    kept = value >> shift
    dropped = value & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    kept_is_odd = (kept & 1) == 1
    round_up = (dropped > half) | ((dropped == half) & kept_is_odd)
    return kept + round_up.to(value.dtype)


def _as_int16(patterns: torch.Tensor) -> torch.Tensor:
    """Store 16-bit patterns 0..0xFFFF (held in int32) in a signed int16 tensor."""
    signed = torch.where(patterns >= 0x8000, patterns - 0x1_0000, patterns)
    return signed.to(torch.int16)


def float32_to_float16_bits(x: torch.Tensor) -> torch.Tensor:
    """Round float32 values to float16 and return the float16 bit patterns.

    Works only on the int32 view of ``x`` (``x.view(torch.int32)``) with shifts,
    masks, adds and comparisons. Three cases:

    1. Normal float16 results (``2**-14 <= |x|``): drop 13 mantissa bits with
       round-to-nearest-even and subtract the exponent bias difference
       ``127 - 15 = 112``. A value that rounds to ``2**16`` or more (``|x| >= 65520``,
       halfway between float16's max 65504 and the next step 65536) becomes ``inf``.
    2. Subnormal float16 results (``|x| < 2**-14``): the answer is
       ``round(|x| / 2**-24)``, the number of smallest subnormals ``2**-24`` in
       ``|x|``. This includes rounding up into the smallest normal (the integer
       1024 is the bit pattern of ``2**-14``), down to zero (``|x| <= 2**-25``; the
       tie ``2**-25`` goes to the even 0) and float32 subnormals (always 0).
    3. ``inf`` stays ``inf``; NaN becomes a quiet NaN with the same sign and the top
       9 payload bits (``0x7E00 | mantissa >> 13``, as the x86 F16C instruction
       ``vcvtps2ph`` does).

    The sign bit is copied, so ``-0.0`` gives ``0x8000`` and negative values that
    round to zero give ``-0.0``, as in PyTorch.

    Compared with PyTorch 2.13 on an x86 CPU: all 2**32 inputs, NaNs included,
    give the same bits as ``x.half()`` on a contiguous tensor (vectorised kernel).
    The scalar path (seen for a strided tensor with ``ATEN_CPU_CAPABILITY=default``)
    returns ``0x7E00`` for positive NaNs whatever their payload, and other devices
    may return other NaN bits.

    Args:
        x: float32 tensor of any shape, on any device.

    Returns:
        ``torch.int16`` tensor of the same shape and device holding the float16
        bit patterns; ``.view(torch.float16)`` turns it into float16 values.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not float32 (the message says to call ``.float()`` or
            ``.dequantize()``, or ``.view(torch.float32)`` for int32 bit patterns).

    Examples:
        >>> import torch
        >>> x = torch.tensor([1.0, -2.0, 65504.0, 65520.0, 2.0**-24, 2.0**-25])
        >>> [hex(b) for b in (float32_to_float16_bits(x).to(torch.int32) & 0xFFFF).tolist()]
        ['0x3c00', '0xc000', '0x7bff', '0x7c00', '0x1', '0x0']
        >>> torch.equal(float32_to_float16_bits(x), x.half().view(torch.int16))
        True
    """
    require_tensor(x)
    require_dtype(x, torch.float32)
    bits = x.view(torch.int32)

    # Split the float32 pattern into its fields.
    sign = (bits >> 16) & F16_SIGN_BIT  # bit 31 moved to bit 15
    magnitude = bits & F32_MAGNITUDE_MASK  # |x| as a bit pattern
    exponent = magnitude >> F32_MANTISSA_BITS  # biased exponent field, 0..255
    mantissa = magnitude & F32_MANTISSA_MASK

    # Case 1: normal float16. The field layout "exponent|mantissa" shifted right by
    # 13 is already "float32 exponent | float16 mantissa"; rounding may carry into
    # the exponent. Then move the exponent from bias 127 to bias 15.
    rebias = (F32_EXPONENT_BIAS - F16_EXPONENT_BIAS) << F16_MANTISSA_BITS
    normal = _round_shift_right(magnitude, F32_TO_F16_DROPPED_BITS) - rebias
    normal = torch.clamp(normal, max=F16_INF)  # too large for float16: inf

    # Case 2: subnormal float16. |x| = significand * 2**(exponent - 150), so
    # |x| / 2**-24 = significand / 2**(126 - exponent). Shifts of 26 or more always
    # give 0 (significand < 2**24 is below one half of 2**26), so capping the shift
    # at 30 changes nothing and keeps "1 << shift" inside int32. (For a float32
    # subnormal, exponent 0, the implicit 1 is wrong, but the shift is capped to 30
    # and the result is 0 anyway.)
    significand = mantissa | F32_IMPLICIT_ONE
    shift = torch.clamp(126 - exponent, min=14, max=30)
    subnormal = _round_shift_right(significand, shift)

    # Case 3: inf and NaN (exponent field all ones).
    quiet_nan = F16_QUIET_NAN | (mantissa >> F32_TO_F16_DROPPED_BITS)
    inf_or_nan = torch.where(mantissa == 0, F16_INF, quiet_nan)

    half = torch.where(exponent >= F16_SMALLEST_NORMAL_F32_EXPONENT, normal, subnormal)
    half = torch.where(exponent == F32_EXPONENT_ALL_ONES, inf_or_nan, half)
    return _as_int16(sign | half)


def float32_to_float16(x: torch.Tensor) -> torch.Tensor:
    """Round float32 values to float16 with integer bit operations.

    Same as ``x.half()`` for every non-NaN input; see
    [`float32_to_float16_bits`][reference_impl.storage.rounding.float32_to_float16_bits]
    for the algorithm and the NaN rule.

    Args:
        x: float32 tensor of any shape, on any device.

    Returns:
        float16 tensor of the same shape and device.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not float32.

    Examples:
        >>> import torch
        >>> float32_to_float16(torch.tensor([1.23, 70000.0, -1e-8]))
        tensor([1.2305,    inf, -0.0000], dtype=torch.float16)
    """
    return float32_to_float16_bits(x).view(torch.float16)


def float32_to_bfloat16_bits(x: torch.Tensor) -> torch.Tensor:
    """Round float32 values to bfloat16 and return the bfloat16 bit patterns.

    bfloat16 is the top half of float32: same sign, same 8-bit exponent, 7 of the
    23 mantissa bits. Rounding is therefore one step: drop the low 16 bits of
    ``|x|``'s pattern with round-to-nearest-even. Everything else follows:

    * subnormal float32 values become subnormal bfloat16 values (same exponent
      range), and the carry can turn the largest subnormal into the smallest normal;
    * values at or above the halfway point between bfloat16's max
      (``0x7F7F``, about 3.3895e38) and ``2**128`` carry into the exponent and
      give exactly the ``inf`` pattern ``0x7F80``;
    * ``inf`` (low 16 bits zero) is kept; ``-0.0`` is kept.

    NaN is the only special case: plain rounding could carry a NaN into ``inf``
    (or the sign bit), so NaN becomes a quiet NaN with the same sign and the top 6
    payload bits: ``0x7FC0 | mantissa >> 16`` (as the AVX512-BF16 instruction
    ``vcvtneps2bf16`` does). PyTorch 2.13 on CPU returns ``0xFFFF`` (a negative
    NaN) for every NaN in its vectorised kernel and ``0x7FC0`` in its scalar code;
    other devices may differ again. Compare NaNs as "both NaN".

    Args:
        x: float32 tensor of any shape, on any device.

    Returns:
        ``torch.int16`` tensor of the same shape and device holding the bfloat16
        bit patterns; ``.view(torch.bfloat16)`` turns it into bfloat16 values.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not float32.

    Examples:
        >>> import torch
        >>> x = torch.tensor([1.0, 1.00390625, 1.01171875, -3.0e38, 3.4e38])
        >>> [hex(b) for b in (float32_to_bfloat16_bits(x).to(torch.int32) & 0xFFFF).tolist()]
        ['0x3f80', '0x3f80', '0x3f82', '0xff62', '0x7f80']
        >>> torch.equal(float32_to_bfloat16_bits(x), x.bfloat16().view(torch.int16))
        True
    """
    require_tensor(x)
    require_dtype(x, torch.float32)
    bits = x.view(torch.int32)

    sign = (bits >> 16) & F16_SIGN_BIT  # bit 31 moved to bit 15
    magnitude = bits & F32_MAGNITUDE_MASK
    mantissa = magnitude & F32_MANTISSA_MASK

    rounded = _round_shift_right(magnitude, F32_TO_BF16_DROPPED_BITS)
    quiet_nan = BF16_QUIET_NAN | (mantissa >> F32_TO_BF16_DROPPED_BITS)
    is_nan = magnitude > F32_INF  # exponent all ones and mantissa not zero
    return _as_int16(sign | torch.where(is_nan, quiet_nan, rounded))


def float32_to_bfloat16(x: torch.Tensor) -> torch.Tensor:
    """Round float32 values to bfloat16 with integer bit operations.

    Same as ``x.bfloat16()`` for every non-NaN input; see
    [`float32_to_bfloat16_bits`][reference_impl.storage.rounding.float32_to_bfloat16_bits]
    for the algorithm and the NaN rule.

    Args:
        x: float32 tensor of any shape, on any device.

    Returns:
        bfloat16 tensor of the same shape and device.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not float32.

    Examples:
        >>> import torch
        >>> float32_to_bfloat16(torch.tensor([1.23, 70000.0, 1e-8]))
        tensor([1.2266e+00, 7.0144e+04, 1.0012e-08], dtype=torch.bfloat16)
    """
    return float32_to_bfloat16_bits(x).view(torch.bfloat16)


def float16_to_float32(x: torch.Tensor) -> torch.Tensor:
    """Widen float16 values to float32 exactly, with integer bit operations.

    Every float16 value is a float32 value, so no rounding happens; only the
    fields move:

    * normal: exponent ``e`` (bias 15) becomes ``e + 112`` (bias 127) and the 10
      mantissa bits move to the top of the 23-bit mantissa (``<< 13``);
    * subnormal ``m * 2**-24`` (exponent field 0, ``m`` in 1..1023): float32 can
      write it as a normal number. With ``p`` the position of ``m``'s highest set
      bit, ``m * 2**-24 = 1.rest * 2**(p - 24)``: exponent field ``p - 24 + 127``
      and mantissa ``(m - 2**p) << (23 - p)``;
    * zero keeps its sign; ``inf`` becomes float32 ``inf``;
    * NaN becomes a quiet NaN with the same sign and payload
      (``0x7FC0_0000 | m << 13``, as x86 F16C ``vcvtph2ps`` and PyTorch's
      vectorised CPU kernel do; PyTorch's scalar CPU code returns ``0x7FFF_FFFF``).

    Args:
        x: float16 tensor of any shape, on any device.

    Returns:
        float32 tensor of the same shape and device, equal to ``x.float()``.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not float16 (for int16 bit patterns call
            ``.view(torch.float16)`` first).

    Examples:
        >>> import torch
        >>> x = torch.tensor([1.0, 65504.0, 2.0**-24, -0.0], dtype=torch.float16)
        >>> float16_to_float32(x).tolist()
        [1.0, 65504.0, 5.960464477539063e-08, -0.0]
        >>> hex(float16_to_float32(x).view(torch.int32)[2].item())
        '0x33800000'
    """
    require_tensor(x)
    require_dtype(x, torch.float16)
    # int16 -> int32 copies the sign bit into the top half; "& 0xFFFF" undoes that.
    half = x.view(torch.int16).to(torch.int32) & 0xFFFF

    is_negative = (half & F16_SIGN_BIT) != 0
    exponent = (half >> F16_MANTISSA_BITS) & 0x1F
    mantissa = half & F16_MANTISSA_MASK
    mantissa_to_f32 = F32_MANTISSA_BITS - F16_MANTISSA_BITS  # 13

    rebias = F32_EXPONENT_BIAS - F16_EXPONENT_BIAS  # 112
    normal = ((exponent + rebias) << F32_MANTISSA_BITS) | (mantissa << mantissa_to_f32)

    # Position of the highest set bit of a subnormal mantissa (1..1023): the number
    # of k in 1..9 with mantissa >= 2**k. (A loop over 9 bit positions, not over
    # elements.)
    top_bit = torch.zeros_like(mantissa)
    for k in range(1, F16_MANTISSA_BITS):
        top_bit += (mantissa >= (1 << k)).to(mantissa.dtype)
    sub_exponent = top_bit - 24 + F32_EXPONENT_BIAS
    sub_mantissa = (mantissa - (1 << top_bit)) << (F32_MANTISSA_BITS - top_bit)
    subnormal = (sub_exponent << F32_MANTISSA_BITS) | sub_mantissa
    subnormal = torch.where(mantissa == 0, 0, subnormal)  # +-0 stays 0

    quiet_nan = F32_INF | F32_QUIET_BIT | (mantissa << mantissa_to_f32)
    inf_or_nan = torch.where(mantissa == 0, F32_INF, quiet_nan)

    magnitude = torch.where(exponent == 0, subnormal, normal)
    magnitude = torch.where(exponent == 0x1F, inf_or_nan, magnitude)
    bits = torch.where(is_negative, magnitude | F32_SIGN_BIT, magnitude)
    return bits.view(torch.float32)


def bfloat16_to_float32(x: torch.Tensor) -> torch.Tensor:
    """Widen bfloat16 values to float32 exactly: append 16 zero bits.

    bfloat16 is the top half of a float32 pattern, so widening is a shift: the
    int16 pattern moved into the top half of an int32. Subnormals, zeros,
    infinities and NaNs (payload and quiet bit included) are all carried over
    unchanged, which is also what PyTorch does (bit for bit, NaNs included).

    Args:
        x: bfloat16 tensor of any shape, on any device.

    Returns:
        float32 tensor of the same shape and device, equal to ``x.float()``.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is not bfloat16 (for int16 bit patterns call
            ``.view(torch.bfloat16)`` first).

    Examples:
        >>> import torch
        >>> bfloat16_to_float32(torch.tensor([1.0, -2.5, 3.0e38], dtype=torch.bfloat16)).tolist()
        [1.0, -2.5, 3.00405527047391e+38]
    """
    require_tensor(x)
    require_dtype(x, torch.bfloat16)
    # int16 -> int32 sign-extends; shifting left by 16 pushes those copies of the
    # sign bit out and leaves the pattern in the top half, zeros below.
    return (x.view(torch.int16).to(torch.int32) << 16).view(torch.float32)


# ---------------------------------------------------------------------------
# Exhaustive check over all 2**32 float32 bit patterns.
# ---------------------------------------------------------------------------

_TARGETS = {
    "float16": (float32_to_float16_bits, torch.float16),
    "bfloat16": (float32_to_bfloat16_bits, torch.bfloat16),
}


@dataclass(frozen=True)
class ExhaustiveSummary:
    """Result of [`exhaustive_check`][reference_impl.storage.rounding.exhaustive_check].

    Attributes:
        target: ``"float16"`` or ``"bfloat16"``.
        device: Device the check ran on.
        checked: Number of float32 bit patterns compared.
        mismatches: Patterns where the reference and PyTorch differ (non-NaN inputs
            compared bit for bit, NaN inputs compared as "both NaN").
        nan_bit_differences: NaN inputs where both results are NaN but the bit
            patterns differ (expected: PyTorch's NaN bits vary, see the module doc).
        seconds: Wall-clock time of the check.
        first_mismatches: Up to 10 float32 patterns (as unsigned ints) that mismatched.
    """

    target: str
    device: str
    checked: int
    mismatches: int
    nan_bit_differences: int
    seconds: float
    first_mismatches: tuple[int, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """True when no pattern mismatched."""
        return self.mismatches == 0

    def __str__(self) -> str:
        return (
            f"{self.target} on {self.device}: {self.checked:,} patterns, "
            f"{self.mismatches} mismatches, {self.nan_bit_differences:,} NaNs with other "
            f"NaN bits, {self.seconds:.1f} s"
        )


def exhaustive_check(
    target: Literal["float16", "bfloat16"] = "float16",
    device: str | torch.device = "cpu",
    chunk_bits: int = 20,
    *,
    chunks: Iterable[int] | None = None,
) -> ExhaustiveSummary:
    """Compare the reference rounding with PyTorch on every float32 bit pattern.

    The 2**32 patterns 0x0000_0000..0xFFFF_FFFF are split into chunks of
    ``2**chunk_bits`` consecutive patterns; chunk ``i`` starts at
    ``i * 2**chunk_bits``. Each chunk is built with ``torch.arange``, viewed as
    float32, converted by the reference and by ``.to(dtype)``, and compared.

    Args:
        target: ``"float16"`` or ``"bfloat16"``.
        device: Device to run on (``"cpu"``, ``"cuda"``, ...).
        chunk_bits: log2 of the chunk size, 8 to 32. The default 20 (1 Mi patterns,
            about 25 MB of temporaries) keeps a chunk in cache and was about twice
            as fast on CPU as 24; on a GPU use 24 or more.
        chunks: Chunk indices to check (default: all ``2**(32 - chunk_bits)``).
            A subset is useful for a quick check, for example the chunks holding the
            NaNs or the float16 subnormals.

    Returns:
        An [ExhaustiveSummary][reference_impl.storage.rounding.ExhaustiveSummary].

    Raises:
        ConfigError: unknown ``target``, ``chunk_bits`` out of range, or a chunk
            index out of range.

    Examples:
        >>> summary = exhaustive_check("float16", chunk_bits=16, chunks=[0x3C00, 0x7F80])
        >>> summary.checked, summary.mismatches
        (131072, 0)
    """
    if target not in _TARGETS:
        raise ConfigError(f"target must be 'float16' or 'bfloat16', got {target!r}")
    if not isinstance(chunk_bits, int) or not 8 <= chunk_bits <= 32:
        raise ConfigError(f"chunk_bits must be an int from 8 to 32, got {chunk_bits!r}")
    reference, dtype = _TARGETS[target]
    chunk_size = 1 << chunk_bits
    n_chunks = 1 << (32 - chunk_bits)
    indices = list(range(n_chunks)) if chunks is None else list(chunks)
    for index in indices:
        if not 0 <= index < n_chunks:
            raise ConfigError(
                f"chunk index {index} out of range 0..{n_chunks - 1} for chunk_bits={chunk_bits}"
            )

    start_time = time.perf_counter()
    checked = mismatches = nan_bit_differences = 0
    first: list[int] = []
    for index in indices:
        unsigned = torch.arange(
            index * chunk_size, (index + 1) * chunk_size, dtype=torch.int64, device=device
        )
        # Patterns 0x8000_0000.. are negative as int32: subtract 2**32 before narrowing.
        signed = torch.where(unsigned >= 2**31, unsigned - 2**32, unsigned)
        x = signed.to(torch.int32).view(torch.float32)
        ours = reference(x)
        theirs = x.to(dtype).view(torch.int16)
        input_is_nan = torch.isnan(x)
        both_nan = torch.isnan(ours.view(dtype)) & torch.isnan(theirs.view(dtype))
        same = torch.where(input_is_nan, both_nan, ours == theirs)
        bad = ~same
        mismatches += int(bad.sum())
        nan_bit_differences += int((input_is_nan & both_nan & (ours != theirs)).sum())
        if len(first) < 10 and bool(bad.any()):
            first.extend(unsigned[bad][: 10 - len(first)].tolist())
        checked += chunk_size
        del unsigned, signed, x, ours, theirs, input_is_nan, both_nan, same, bad
    return ExhaustiveSummary(
        target=target,
        device=str(torch.device(device)),
        checked=checked,
        mismatches=mismatches,
        nan_bit_differences=nan_bit_differences,
        seconds=time.perf_counter() - start_time,
        first_mismatches=tuple(first),
    )
