"""Cast between float dtypes and say what was lost.

``x.half()`` turns 70000 into ``inf`` and 1e-8 into 0 without a word.
[`check_cast`][reference_impl.storage.casting.check_cast] counts those losses, and
[`safe_cast`][reference_impl.storage.casting.safe_cast] casts and raises
[CastError][reference_impl.errors.CastError] or warns with
[CastWarning][reference_impl.storage.casting.CastWarning] when something was lost.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Literal

import torch

from reference_impl._checks import dtype_name, require_tensor
from reference_impl.errors import CastError, ConfigError, DtypeError
from reference_impl.storage._checks import require_dtype_object
from reference_impl.storage.dtype_info import dtype_facts

__all__ = ["CastReport", "CastWarning", "Offender", "check_cast", "safe_cast"]


class CastWarning(UserWarning):
    """A float cast lost information (overflow, underflow, NaN, lost infinities).

    Emitted by [`safe_cast`][reference_impl.storage.casting.safe_cast] with
    ``errors="warn"``. Turn it into an error with
    ``warnings.simplefilter("error", CastWarning)``.
    """


@dataclass(frozen=True)
class Offender:
    """The first element of one kind of loss, in row-major order.

    Attributes:
        index: Position in the input tensor (one int per dimension).
        value: The input value (as a Python float).
        result: What it became after the cast.
    """

    index: tuple[int, ...]
    value: float
    result: float


@dataclass(frozen=True)
class CastReport:
    """What a float-to-float cast lost.

    Attributes:
        source: Input dtype.
        target: Output dtype.
        numel: Number of elements.
        overflow: Finite inputs too large for ``target``: they became ``inf`` (or
            NaN, or were clamped to the largest value in float8 formats without
            inf). Counted from the true rounding threshold, halfway past the
            largest finite value (65520 for float16).
        underflow: Non-zero finite inputs that became zero.
        subnormal: Non-zero results in ``target``'s subnormal range (fewer
            significant bits than normal numbers).
        nan: NaNs already in the input.
        lost_inf: Infinite inputs that did not stay infinite (float8 formats
            without inf turn them into NaN or the largest value).
        first_overflow: First overflowing element, or None.
        first_underflow: First underflowing element, or None.
        first_subnormal: First element that became subnormal, or None.
        first_nan: First NaN, or None.
        first_lost_inf: First infinity not kept, or None.
    """

    source: torch.dtype
    target: torch.dtype
    numel: int
    overflow: int
    underflow: int
    subnormal: int
    nan: int
    lost_inf: int
    first_overflow: Offender | None
    first_underflow: Offender | None
    first_subnormal: Offender | None
    first_nan: Offender | None
    first_lost_inf: Offender | None

    def problems(self, *, allow_nan: bool = False, allow_subnormal: bool = True) -> list[str]:
        """Describe each kind of loss, one sentence each (empty list: nothing lost).

        Args:
            allow_nan: Do not report NaNs already present in the input.
            allow_subnormal: Do not report values that became subnormal.

        Returns:
            List of sentences naming the count and the first offending value.
        """
        target = dtype_facts(self.target)
        name = dtype_name(self.target)
        found = []
        if self.overflow:
            found.append(
                f"{self.overflow:,} of {self.numel:,} values overflow (|x| beyond {name}'s "
                f"max {target.max:g}); first {_describe(self.first_overflow)}"
            )
        if self.underflow:
            found.append(
                f"{self.underflow:,} non-zero values underflow to 0 (|x| below half of "
                f"{name}'s smallest value {target.smallest_subnormal:g}); first "
                f"{_describe(self.first_underflow)}"
            )
        if self.lost_inf:
            found.append(
                f"{self.lost_inf:,} infinities are not kept ({name} has no inf); first "
                f"{_describe(self.first_lost_inf)}"
            )
        if self.nan and not allow_nan:
            found.append(f"{self.nan:,} NaNs in the input; first {_describe(self.first_nan)}")
        if self.subnormal and not allow_subnormal:
            found.append(
                f"{self.subnormal:,} values become subnormal (below {name}'s smallest normal "
                f"{target.smallest_normal:g}, fewer significant bits); first "
                f"{_describe(self.first_subnormal)}"
            )
        return found

    def ok(self, *, allow_nan: bool = False, allow_subnormal: bool = True) -> bool:
        """True when `problems()` finds nothing."""
        return not self.problems(allow_nan=allow_nan, allow_subnormal=allow_subnormal)

    def message(self, *, allow_nan: bool = False, allow_subnormal: bool = True) -> str:
        """One message with every problem and what to do about it ("" if none)."""
        found = self.problems(allow_nan=allow_nan, allow_subnormal=allow_subnormal)
        if not found:
            return ""
        advice = []
        if self.overflow or self.underflow or (self.subnormal and not allow_subnormal):
            advice.append(
                "cast to torch.bfloat16 (float32's range) or scale the tensor into range "
                "first (multiply by a power of two, as torch.amp.GradScaler does)"
            )
        if self.nan and not allow_nan:
            advice.append("find where the NaNs come from, or pass allow_nan=True")
        source = dtype_name(self.source)
        target = dtype_name(self.target)
        text = f"cast {source} -> {target}: " + "; ".join(found) + "."
        if advice:
            text += " To fix: " + "; ".join(advice) + "."
        return text


def _describe(offender: Offender | None) -> str:
    if offender is None:  # pragma: no cover - only called when a count is non-zero
        return "?"
    return f"{offender.value!r} at index {offender.index} became {offender.result!r}"


def _first(mask: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> Offender | None:
    """The first element where ``mask`` is True, or None."""
    positions = mask.reshape(-1).nonzero()
    if positions.numel() == 0:
        return None
    flat = int(positions[0, 0])
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), x.shape))
    value = x.reshape(-1)[flat].item()
    return Offender(index=index, value=value, result=y.reshape(-1)[flat].item())


def _require_float_tensor(x: Any) -> torch.Tensor:
    require_tensor(x)
    if x.is_quantized:
        raise DtypeError(f"x is a quantized {x.dtype} tensor; call .dequantize() first")
    if not x.dtype.is_floating_point:
        raise DtypeError(
            f"x must be a floating tensor, got {x.dtype}; call .float() first "
            f"(safe_cast checks float-to-float casts)"
        )
    return x


def _require_float_dtype(dtype: Any) -> torch.dtype:
    require_dtype_object(dtype)
    if not dtype.is_floating_point:
        raise DtypeError(
            f"dtype must be a floating dtype such as torch.float16, got {dtype}; for "
            f"integer targets round and clamp to torch.iinfo(dtype) yourself, for "
            f"quantized ones use torch.ao quantization"
        )
    dtype_facts(dtype)  # raises DtypeError for dtypes without facts (float8_e8m0fnu)
    return dtype


def _overflow_threshold(dtype: torch.dtype) -> tuple[float, bool]:
    """Where values stop rounding to the largest finite value of ``dtype``: ``(threshold, tie_overflows)``.

    Round to nearest sends values up to half a step past ``max`` back to ``max``; past
    ``max + step / 2`` they overflow. The step is ``max`` minus the next smaller value. At
    exactly ``max + step / 2`` (a tie) round-to-nearest-even decides: the tie overflows when
    ``max``'s last significand bit is odd (float16's 65504, bfloat16, float8_e5m2's 57344), and
    stays at ``max`` when it is even (float8_e4m3fn's 448 = 1.110b x 2^8, so 464 -> 448 is an
    ordinary rounding, not an overflow). The threshold is a float64 number (inf for float64).
    """
    facts = dtype_facts(dtype)
    if dtype == torch.float64:
        return float("inf"), False
    bits_dtype = {8: torch.uint8, 16: torch.int16, 32: torch.int32}[facts.bits]
    max_bits = torch.tensor([facts.max], dtype=torch.float64).to(dtype).view(bits_dtype)
    below_max = float((max_bits - 1).view(dtype).double().item())
    tie_overflows = bool((max_bits.to(torch.int64) & 1).item())
    return facts.max + (facts.max - below_max) / 2, tie_overflows


def _cast_and_report(x: torch.Tensor, dtype: torch.dtype) -> tuple[torch.Tensor, CastReport]:
    y = x.to(dtype)
    facts = dtype_facts(dtype)
    # float64 holds every value of every float dtype exactly: compare there.
    xd = x.double()
    yd = y.double()
    finite_in = torch.isfinite(xd)
    abs_x = xd.abs()

    threshold, tie_overflows = _overflow_threshold(dtype)
    past = (abs_x >= threshold) if tie_overflows else (abs_x > threshold)
    overflow = finite_in & (past | ~torch.isfinite(yd))
    underflow = finite_in & (xd != 0) & (yd == 0)
    subnormal = torch.isfinite(yd) & (yd != 0) & (yd.abs() < facts.smallest_normal)
    nan = torch.isnan(xd)
    lost_inf = torch.isinf(xd) & (yd != xd)

    report = CastReport(
        source=x.dtype,
        target=dtype,
        numel=x.numel(),
        overflow=int(overflow.sum()),
        underflow=int(underflow.sum()),
        subnormal=int(subnormal.sum()),
        nan=int(nan.sum()),
        lost_inf=int(lost_inf.sum()),
        first_overflow=_first(overflow, x, y),
        first_underflow=_first(underflow, x, y),
        first_subnormal=_first(subnormal, x, y),
        first_nan=_first(nan, x, y),
        first_lost_inf=_first(lost_inf, x, y),
    )
    return y, report


def check_cast(x: Any, dtype: Any) -> CastReport:
    """Count what casting ``x`` to ``dtype`` would lose, without raising or warning.

    Args:
        x: Floating tensor (float64, float32, float16, bfloat16, float8), any
            device and shape.
        dtype: Floating target dtype.

    Returns:
        A frozen [CastReport][reference_impl.storage.casting.CastReport].

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is quantized (call ``.dequantize()``) or not floating
            (call ``.float()``), or ``dtype`` is not a floating dtype.

    Examples:
        >>> import torch
        >>> report = check_cast(torch.tensor([1.0, 70000.0, 1e-8, 1e-6]), torch.float16)
        >>> report.overflow, report.underflow, report.subnormal
        (1, 1, 1)
        >>> report.first_overflow
        Offender(index=(1,), value=70000.0, result=inf)
    """
    x = _require_float_tensor(x)
    return _cast_and_report(x, _require_float_dtype(dtype))[1]


def safe_cast(
    x: Any,
    dtype: Any,
    *,
    errors: Literal["raise", "warn"] = "raise",
    allow_nan: bool = False,
    allow_subnormal: bool = True,
) -> torch.Tensor:
    """Cast a float tensor to another float dtype, never losing values silently.

    Overflow (finite values too large for ``dtype``), underflow (non-zero values
    that become 0), infinities the target cannot hold and, unless ``allow_nan``,
    NaNs in the input are problems; with ``allow_subnormal=False`` so are results
    in the subnormal range. Each problem is reported with its count and its first
    offending value.

    Args:
        x: Floating tensor, any device and shape.
        dtype: Floating target dtype.
        errors: ``"raise"`` raises CastError on any problem; ``"warn"`` emits a
            [CastWarning][reference_impl.storage.casting.CastWarning] and returns
            the cast tensor anyway.
        allow_nan: Accept NaNs that are already in the input.
        allow_subnormal: Accept results that are subnormal in ``dtype``.

    Returns:
        ``x.to(dtype)``.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        DtypeError: ``x`` is quantized or not floating, or ``dtype`` is not floating.
        ConfigError: ``errors`` is not ``"raise"`` or ``"warn"``.
        CastError: ``errors="raise"`` and the cast lost information.

    Examples:
        >>> import torch
        >>> safe_cast(torch.tensor([1.0, 2.5]), torch.float16)
        tensor([1.0000, 2.5000], dtype=torch.float16)
        >>> safe_cast(torch.tensor([1.0, 70000.0]), torch.float16)
        Traceback (most recent call last):
        ...
        reference_impl.errors.CastError: cast float32 -> float16: 1 of 2 values overflow ...
        >>> safe_cast(torch.tensor([1.0, 70000.0]), torch.bfloat16)
        tensor([1.0000e+00, 7.0144e+04], dtype=torch.bfloat16)
    """
    if errors not in ("raise", "warn"):
        raise ConfigError(f"errors must be 'raise' or 'warn', got {errors!r}")
    x = _require_float_tensor(x)
    y, report = _cast_and_report(x, _require_float_dtype(dtype))
    message = report.message(allow_nan=allow_nan, allow_subnormal=allow_subnormal)
    if message:
        if errors == "raise":
            raise CastError(message)
        warnings.warn(message, CastWarning, stacklevel=2)
    return y
