"""Argument checks shared by the `reference_impl.quantization` modules.

Every check raises a typed error from `reference_impl.errors` (none is defined here; the two
quantization errors are re-exported for convenience) whose message says what was wrong and
what to do instead.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from reference_impl._checks import require_tensor
from reference_impl.errors import ConfigError, DtypeError, NonFiniteInputError, NothingQuantizedError

__all__ = ["NonFiniteInputError", "NothingQuantizedError", "INT_RANGES"]


#: Integer dtypes a quantized value may be stored in, with their full ranges.
INT_RANGES: dict[torch.dtype, tuple[int, int]] = {
    torch.int8: (-128, 127),
    torch.uint8: (0, 255),
    torch.int32: (-(2**31), 2**31 - 1),
}

_QUANTIZED_DTYPE_HINTS = {
    "torch.qint8": "torch.int8",
    "torch.quint8": "torch.uint8",
    "torch.qint32": "torch.int32",
}


def require_int_dtype(dtype: Any, name: str = "dtype") -> tuple[int, int]:
    """Return the (min, max) integer range of ``dtype``; raise DtypeError for anything else."""
    if dtype in INT_RANGES:
        return INT_RANGES[dtype]
    hint = _QUANTIZED_DTYPE_HINTS.get(str(dtype))
    if hint:
        raise DtypeError(
            f"{name}={dtype} is a quantized dtype; this reference stores plain integers: use {hint}"
        )
    raise DtypeError(f"{name} must be torch.int8, torch.uint8 or torch.int32, got {dtype!r}")


def require_float_input(x: Any, name: str = "x") -> torch.Tensor:
    """Check that ``x`` is a finite floating-point tensor (what can be quantized)."""
    require_tensor(x, name)
    if x.is_quantized:
        raise DtypeError(f"{name} is already quantized ({x.dtype}); call .dequantize() first")
    if not x.is_floating_point():
        raise DtypeError(f"{name} must be a floating-point tensor, got {x.dtype}; call .float() first")
    if not bool(torch.isfinite(x).all()):
        bad = (~torch.isfinite(x)).sum().item()
        raise NonFiniteInputError(
            f"{name} holds {bad} NaN/inf value(s), which have no integer code; "
            "clean the input (torch.nan_to_num) or find where they come from"
        )
    return x


def require_scale(scale: Any, name: str = "scale") -> torch.Tensor:
    """Return ``scale`` as a float64 tensor; raise ConfigError unless every value is finite and > 0."""
    s = torch.as_tensor(scale, dtype=torch.float64)
    if s.numel() == 0 or not bool(torch.isfinite(s).all()) or not bool((s > 0).all()):
        raise ConfigError(
            f"{name} must be finite and > 0, got {_short(scale)}; compute it from the value range, "
            "e.g. with reference_impl.quantization.choose_qparams"
        )
    return s


def require_zero_point(zero_point: Any, qmin: int, qmax: int, name: str = "zero_point") -> torch.Tensor:
    """Return ``zero_point`` as an int64 tensor; raise ConfigError if it is not an integer in [qmin, qmax]."""
    z = torch.as_tensor(zero_point)
    if z.is_floating_point():
        if not bool(torch.isfinite(z).all()) or not bool((z == z.round()).all()):
            raise ConfigError(f"{name} must be an integer, got {_short(zero_point)}")
    z = z.to(torch.int64)
    if not bool(((z >= qmin) & (z <= qmax)).all()):
        raise ConfigError(
            f"{name} must lie in the integer range [{qmin}, {qmax}] of the target dtype, got {_short(zero_point)}"
        )
    return z


def _short(value: Any) -> str:
    if isinstance(value, torch.Tensor):
        flat = value.flatten().tolist()
        text = ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in flat[:4])
        return f"[{text}{', ...' if len(flat) > 4 else ''}]"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return repr(value)
