"""Argument checks shared by every part of `reference_impl` (and the benchmark command).

One helper per job: is it a tensor, is it a module, is CUDA usable, what is a dtype called.
Each raises a typed error from `reference_impl.errors` whose message says what to do.
"""

from __future__ import annotations

from typing import Any

import torch

from reference_impl.errors import CudaUnavailableError, NotAModuleError, NotATensorError

__all__ = ["cuda_usable", "dtype_name", "require_cuda", "require_module", "require_tensor"]


def require_tensor(x: Any, name: str = "x") -> torch.Tensor:
    """Return ``x`` if it is a ``torch.Tensor``, else raise NotATensorError.

    Examples:
        >>> require_tensor([1.0])
        Traceback (most recent call last):
        ...
        reference_impl.errors.NotATensorError: x must be a torch.Tensor, got list; wrap Python numbers or lists with torch.tensor(...)
    """
    if not isinstance(x, torch.Tensor):
        raise NotATensorError(
            f"{name} must be a torch.Tensor, got {type(x).__name__}; wrap Python numbers or lists with torch.tensor(...)"
        )
    return x


def require_module(x: Any, name: str = "model", hint: str = "pass the model itself") -> torch.nn.Module:
    """Return ``x`` if it is a ``torch.nn.Module``, else raise NotAModuleError (the message ends with ``hint``).

    Examples:
        >>> require_module("net", hint="for a single tensor use tensor_footprint(t)")
        Traceback (most recent call last):
        ...
        reference_impl.errors.NotAModuleError: model must be a torch.nn.Module, got str; for a single tensor use tensor_footprint(t)
    """
    if not isinstance(x, torch.nn.Module):
        raise NotAModuleError(f"{name} must be a torch.nn.Module, got {type(x).__name__}; {hint}")
    return x


def cuda_usable() -> bool:
    """True when this process can run CUDA kernels (a CUDA build of torch and a visible GPU)."""
    return torch.cuda.is_available()


def require_cuda(device: str, what: str, hint: str, error: type[CudaUnavailableError] = CudaUnavailableError) -> None:
    """Raise ``error`` when ``device`` is ``"cuda"`` and CUDA is not usable here; do nothing otherwise.

    Args:
        device: The device type asked for.
        what: What asked for CUDA (starts the message: ``"device='cuda'"``).
        hint: What to do instead (ends the message).
        error: The class to raise (a [CudaUnavailableError][reference_impl.errors.CudaUnavailableError]).

    Examples:
        >>> require_cuda("cpu", "the benchmark", "use --device cpu")  # nothing to check
    """
    if device == "cuda" and not cuda_usable():
        raise error(f"{what} but CUDA is not available: {hint}")


def dtype_name(dtype: torch.dtype) -> str:
    """A dtype's name without the ``torch.`` prefix, as tables and messages show it.

    Examples:
        >>> dtype_name(torch.bfloat16)
        'bfloat16'
    """
    return str(dtype).removeprefix("torch.")
