"""Custom autograd Functions that behave correctly under autocast.

``torch.amp.custom_fwd`` and ``torch.amp.custom_bwd`` are decorators for the
``forward`` and ``backward`` staticmethods of a ``torch.autograd.Function``:

* ``@torch.amp.custom_fwd(device_type=...)`` records whether autocast was on
  (and its dtype) when ``forward`` ran;
* ``@torch.amp.custom_bwd(device_type=...)`` runs ``backward`` under that same
  autocast state. Without it, ``backward`` runs with autocast off (the backward
  pass happens outside the ``with torch.autocast(...)`` block), and mixing the
  bfloat16 gradient with the float32 tensors saved in ``forward`` fails;
* ``@torch.amp.custom_fwd(device_type=..., cast_inputs=torch.float32)`` instead
  casts the floating-point inputs to float32 and runs ``forward`` (and then
  ``backward``) with autocast **off**: the way to keep a numerically sensitive op
  in float32 inside an autocast region.

Neither decorator "recomputes the gradient in high precision". The
``device_type`` is fixed when the class is defined, so this module defines each
Function once per device type and picks by the input's device.
"""

from __future__ import annotations

import torch

from reference_impl._checks import dtype_name, require_tensor
from reference_impl.errors import UnknownDeviceTypeError

__all__ = ["DtypeLog", "logsumexp_float32", "matmul_with_dtype_log"]

_DEVICE_TYPES = ("cpu", "cuda")


def _device_type_of(x: torch.Tensor) -> str:
    kind = x.device.type
    if kind not in _DEVICE_TYPES:
        raise UnknownDeviceTypeError(f"tensors on {kind!r} are not supported; use a 'cpu' or 'cuda' tensor")
    return kind


def _make_logsumexp(device_type: str) -> type[torch.autograd.Function]:
    class LogSumExpFloat32(torch.autograd.Function):
        """log(sum(exp(x))) over ``dim``, always computed in float32 (or float64) under autocast."""

        @staticmethod
        @torch.amp.custom_fwd(device_type=device_type, cast_inputs=torch.float32)
        def forward(ctx, x: torch.Tensor, dim: int) -> torch.Tensor:
            # Subtract the max so that exp() cannot overflow.
            peak = x.amax(dim, keepdim=True)
            out = peak + (x - peak).exp().sum(dim, keepdim=True).log()
            ctx.save_for_backward(x, out)
            ctx.dim = dim
            return out.squeeze(dim)

        @staticmethod
        @torch.amp.custom_bwd(device_type=device_type)
        def backward(ctx, grad: torch.Tensor) -> tuple[torch.Tensor, None]:
            x, out = ctx.saved_tensors
            # d logsumexp / dx = softmax(x) = exp(x - logsumexp(x))
            return grad.unsqueeze(ctx.dim) * (x - out).exp(), None

    LogSumExpFloat32.__qualname__ = f"LogSumExpFloat32[{device_type}]"
    return LogSumExpFloat32


_LOGSUMEXP = {device_type: _make_logsumexp(device_type) for device_type in _DEVICE_TYPES}


def logsumexp_float32(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    """``log(sum(exp(x), dim))`` that runs in float32 even inside an autocast region.

    A custom autograd Function whose ``forward`` is decorated with
    ``torch.amp.custom_fwd(device_type=..., cast_inputs=torch.float32)``: under
    autocast, float16/bfloat16 inputs are cast to float32 and the op runs with
    autocast off; outside autocast nothing is cast (float64 stays float64, which
    is what ``torch.autograd.gradcheck`` needs).

    Args:
        x: A floating-point tensor on the CPU or a CUDA device.
        dim: The dimension to reduce.

    Returns:
        The reduced tensor: float32 under autocast, else ``x``'s dtype.

    Raises:
        NotATensorError: ``x`` is not a tensor.
        UnknownDeviceTypeError: ``x`` is on a device other than CPU or CUDA.

    Examples:
        >>> x = torch.tensor([[0.0, 1.0, 2.0]], dtype=torch.bfloat16)
        >>> with torch.autocast("cpu", dtype=torch.bfloat16):
        ...     y = logsumexp_float32(x)
        >>> y.dtype, round(y.item(), 4)
        (torch.float32, 2.4076)
    """
    require_tensor(x, "x")
    return _LOGSUMEXP[_device_type_of(x)].apply(x, dim)


class DtypeLog(list):
    """A list of ``(phase, description)`` pairs written by [`matmul_with_dtype_log`][reference_impl.amp.functions.matmul_with_dtype_log]."""


def _make_logged_matmul(device_type: str) -> type[torch.autograd.Function]:
    class LoggedMatmul(torch.autograd.Function):
        """``a @ b`` that writes the dtypes it sees in forward and backward to a DtypeLog."""

        @staticmethod
        @torch.amp.custom_fwd(device_type=device_type)
        def forward(ctx, a: torch.Tensor, b: torch.Tensor, log: DtypeLog) -> torch.Tensor:
            ctx.save_for_backward(a, b)
            ctx.log = log
            out = a @ b  # autocast is on here: the matmul runs in the autocast dtype
            log.append(("forward", _describe(f"{_name(a)} @ {_name(b)} -> {_name(out)}", device_type)))
            return out

        @staticmethod
        @torch.amp.custom_bwd(device_type=device_type)
        def backward(ctx, grad: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, None]:
            a, b = ctx.saved_tensors
            # Same autocast state as forward: grad (low precision) @ b (float32) is autocast too.
            grad_a, grad_b = grad @ b.mT, a.mT @ grad
            ctx.log.append(
                ("backward", _describe(f"grad {_name(grad)} -> {_name(grad_a)}, {_name(grad_b)}", device_type))
            )
            return grad_a, grad_b, None

    LoggedMatmul.__qualname__ = f"LoggedMatmul[{device_type}]"
    return LoggedMatmul


def _name(t: torch.Tensor) -> str:
    return dtype_name(t.dtype)


def _describe(text: str, device_type: str) -> str:
    if torch.is_autocast_enabled(device_type):
        state = f"autocast on ({_name(torch.empty(0, dtype=torch.get_autocast_dtype(device_type)))})"
    else:
        state = "autocast off"
    return f"{text}; {state}"


_LOGGED_MATMUL = {device_type: _make_logged_matmul(device_type) for device_type in _DEVICE_TYPES}


def matmul_with_dtype_log(a: torch.Tensor, b: torch.Tensor, log: DtypeLog) -> torch.Tensor:
    """``a @ b`` through a custom Function that records the dtypes and autocast state of both passes.

    ``forward`` is decorated with ``torch.amp.custom_fwd(device_type=...)`` and
    ``backward`` with ``torch.amp.custom_bwd(device_type=...)``, so backward runs
    under the autocast state forward ran under (it does not switch to higher
    precision).

    Args:
        a: Left matrix (CPU or CUDA).
        b: Right matrix, same device.
        log: A [`DtypeLog`][reference_impl.amp.functions.DtypeLog] that receives one entry per pass.

    Returns:
        ``a @ b``.

    Raises:
        NotATensorError: ``a`` or ``b`` is not a tensor.
        UnknownDeviceTypeError: The tensors are on a device other than CPU or CUDA.

    Examples:
        >>> log = DtypeLog()
        >>> a = torch.ones(2, 3, requires_grad=True)
        >>> with torch.autocast("cpu", dtype=torch.bfloat16):
        ...     out = matmul_with_dtype_log(a, torch.ones(3, 2), log)
        >>> out.float().sum().backward()
        >>> for phase, text in log:
        ...     print(phase, text)
        forward float32 @ float32 -> bfloat16; autocast on (bfloat16)
        backward grad bfloat16 -> bfloat16, bfloat16; autocast on (bfloat16)
    """
    require_tensor(a, "a")
    require_tensor(b, "b")
    return _LOGGED_MATMUL[_device_type_of(a)].apply(a, b, log)
