"""Argument checks shared by the `reference_impl.storage` modules.

Every check raises a typed error from `reference_impl.errors` whose message
says what was wrong and what to call instead.
"""

from __future__ import annotations

from typing import Any

import torch

from reference_impl._checks import dtype_name, require_tensor
from reference_impl.errors import DtypeError

__all__ = ["require_dtype", "require_dtype_object", "require_tensor"]

#: Suggestions keyed by input dtype, used when a function wants float32.
_TO_FLOAT32_HINTS = {
    torch.float64: "call .float() first (float64 -> float32 rounds once more)",
    torch.int32: (
        "if it holds float32 bit patterns call .view(torch.float32); "
        "if it holds integer values call .float()"
    ),
}


def require_dtype(x: torch.Tensor, expected: torch.dtype, name: str = "x") -> None:
    """Raise DtypeError unless ``x.dtype == expected``; the message says how to convert."""
    if x.dtype == expected:
        return
    wanted = dtype_name(expected)
    if x.is_quantized:
        hint = f"call .dequantize() first (then .to(torch.{wanted}) if needed)"
    elif expected == torch.float32 and x.dtype in _TO_FLOAT32_HINTS:
        hint = _TO_FLOAT32_HINTS[x.dtype]
    elif expected == torch.float32:
        hint = "call .float() first"
    elif x.dtype == torch.int16:
        hint = f"if it holds {wanted} bit patterns call .view(torch.{wanted})"
    else:
        hint = f"call .to(torch.{wanted}) first"
    raise DtypeError(f"{name} must be a torch.{wanted} tensor, got {x.dtype}; {hint}")


def require_dtype_object(dtype: Any, name: str = "dtype") -> torch.dtype:
    """Return ``dtype`` if it is a ``torch.dtype``, else raise DtypeError."""
    if not isinstance(dtype, torch.dtype):
        raise DtypeError(
            f"{name} must be a torch.dtype such as torch.float16, got "
            f"{type(dtype).__name__} {dtype!r}"
        )
    return dtype
