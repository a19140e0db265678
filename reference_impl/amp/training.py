"""A device-agnostic mixed-precision training step that refuses silent no-ops.

The usual recipe depends on the device: on a CUDA GPU, float16 autocast plus a
gradient scaler; on a CPU, bfloat16 autocast and no scaler. Getting it wrong
rarely fails loudly. ``torch.autocast("cuda")`` on a machine without CUDA only
warns and turns itself off, so the "mixed-precision" code runs in float32 and a
CPU test suite passes while testing nothing; a scaler with bfloat16 is harmless
but useless. [`amp_policy`][reference_impl.amp.training.amp_policy] picks the
recipe for a device and [`train_step`][reference_impl.amp.training.train_step]
runs one step with it, raising a typed error for each of these setups instead.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from reference_impl._checks import require_cuda
from reference_impl.amp.grad_scaler import ReferenceGradScaler
from reference_impl.errors import (
    AutocastDtypeError,
    AutocastUnavailableError,
    DtypeError,
    ScalerNotNeededError,
    ScalerRequiredError,
    UnknownDeviceTypeError,
    WrongTypeError,
)
from reference_impl.storage._checks import require_dtype_object

__all__ = [
    "AmpPolicy",
    "StepResult",
    "amp_policy",
    "checked_autocast",
    "has_native_bfloat16",
    "make_scaler",
    "train_step",
]

_DEFAULT_DTYPE = {"cpu": torch.bfloat16, "cuda": torch.float16}


@dataclass(frozen=True)
class AmpPolicy:
    """How to run mixed precision on one device type.

    Attributes:
        device_type: ``"cpu"`` or ``"cuda"``.
        dtype: The autocast dtype (``torch.float16`` or ``torch.bfloat16``).
        needs_scaler: True for float16 (gradients underflow without loss scaling).
    """

    device_type: str
    dtype: torch.dtype
    needs_scaler: bool


def has_native_bfloat16(device: str | torch.device | int | None = None) -> bool:
    """Whether a CUDA GPU computes in bfloat16 natively (compute capability 8.0, Ampere, or newer).

    PyTorch's own answer, ``torch.cuda.is_bf16_supported(including_emulation=False)``, asked of
    ``device``. Without the argument, ``is_bf16_supported()`` also returns True on older GPUs
    (V100, T4) where bfloat16 works only by emulation, which is correct but slow. ROCm GPUs
    count as native, as PyTorch assumes. On a machine without CUDA it returns False.

    Args:
        device: A CUDA device (``"cuda:1"``, ``torch.device``, an index) or None for the
            current device.

    Returns:
        True when the device's compute capability is 8.0 or higher (or the build is ROCm).

    Examples:
        >>> has_native_bfloat16() == torch.cuda.is_bf16_supported(including_emulation=False)
        True
    """
    if not torch.version.hip and not torch.cuda.is_available():
        return False
    index = device if isinstance(device, int) else None if device is None else torch.device(device).index
    if index is None:  # the current device ("cuda" names no particular one)
        return torch.cuda.is_bf16_supported(including_emulation=False)
    with torch.cuda.device(index):
        return torch.cuda.is_bf16_supported(including_emulation=False)


def _supported_dtypes(device_type: str) -> tuple[torch.dtype, ...]:
    if device_type == "cuda" and not has_native_bfloat16():
        return (torch.float16,)
    return (torch.float16, torch.bfloat16)


def amp_policy(device: str | torch.device, dtype: torch.dtype | None = None) -> AmpPolicy:
    """Choose (or check) the autocast dtype and whether a gradient scaler is needed.

    Args:
        device: A device or device type (``"cpu"``, ``"cuda"``, ``"cuda:1"``, ``torch.device(...)``).
        dtype: The autocast dtype; default float16 on CUDA, bfloat16 on CPU.

    Returns:
        An [`AmpPolicy`][reference_impl.amp.training.AmpPolicy].

    Raises:
        UnknownDeviceTypeError: The device is not a CPU or a CUDA device.
        AutocastUnavailableError: A CUDA device on a machine without CUDA (autocast would
            warn and disable itself).
        AutocastDtypeError: The device cannot autocast to ``dtype`` (float32, float64,
            an integer dtype, or bfloat16 on a GPU without native bfloat16, see
            [`has_native_bfloat16`][reference_impl.amp.training.has_native_bfloat16]).

    Examples:
        >>> amp_policy("cpu")
        AmpPolicy(device_type='cpu', dtype=torch.bfloat16, needs_scaler=False)
        >>> amp_policy("cpu", torch.float16).needs_scaler
        True
        >>> amp_policy("cpu", torch.float64)
        Traceback (most recent call last):
        ...
        reference_impl.errors.AutocastDtypeError: cpu autocast supports torch.float16, torch.bfloat16, not torch.float64 ...
    """
    try:
        device_type = torch.device(device).type
    except (RuntimeError, TypeError) as err:
        raise UnknownDeviceTypeError(f"not a device: {device!r} ({err}); use 'cpu' or 'cuda'") from None
    if device_type not in _DEFAULT_DTYPE:
        raise UnknownDeviceTypeError(
            f"device type {device_type!r} is not supported here; use 'cpu' (bfloat16) or 'cuda' (float16)"
        )
    require_cuda(
        device_type,
        "device 'cuda'",
        "torch.autocast('cuda') would only warn and disable itself, and the step would silently run in float32; "
        "use amp_policy('cpu') (bfloat16) on this machine",
        AutocastUnavailableError,
    )
    if dtype is None:
        dtype = _DEFAULT_DTYPE[device_type]
    require_dtype_object(dtype)
    if device_type == "cuda" and dtype == torch.bfloat16 and not has_native_bfloat16(device):
        major, minor = torch.cuda.get_device_capability(device)
        raise AutocastDtypeError(
            f"this GPU (compute capability {major}.{minor}) has no native bfloat16: autocast would "
            f"run it by emulation, correct but slow (torch.cuda.is_bf16_supported() still says True); "
            f"use float16 with a GradScaler on this GPU"
        )
    supported = _supported_dtypes(device_type)
    if dtype not in supported:
        raise AutocastDtypeError(
            f"{device_type} autocast supports {', '.join(map(str, supported))}, not {dtype} "
            f"(torch.autocast would warn and disable itself); pass one of those, or no autocast at all "
            f"to train in float32"
        )
    return AmpPolicy(device_type, dtype, needs_scaler=dtype == torch.float16)


def checked_autocast(device_type: str, dtype: torch.dtype | None = None) -> torch.autocast:
    """``torch.autocast(device_type, dtype)`` that raises where PyTorch would warn and disable itself.

    Args:
        device_type: ``"cpu"`` or ``"cuda"``.
        dtype: The autocast dtype; default as in [`amp_policy`][reference_impl.amp.training.amp_policy].

    Returns:
        An enabled ``torch.autocast`` context manager.

    Raises:
        UnknownDeviceTypeError: Not ``"cpu"`` or ``"cuda"``.
        AutocastUnavailableError: ``"cuda"`` without CUDA, or any "disabling" warning from PyTorch.
        AutocastDtypeError: A dtype the device cannot autocast to.

    Examples:
        >>> with checked_autocast("cpu"):
        ...     print((torch.ones(2, 2) @ torch.ones(2, 2)).dtype)
        torch.bfloat16
    """
    policy = amp_policy(device_type, dtype)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        context = torch.autocast(policy.device_type, dtype=policy.dtype)
    if caught:
        raise AutocastUnavailableError(f"torch.autocast would disable itself: {caught[0].message}")
    return context


def make_scaler(policy: AmpPolicy, **kwargs: Any) -> torch.amp.GradScaler | None:
    """A ``torch.amp.GradScaler`` for a float16 policy, None for bfloat16.

    Create it **once**, before the loop, and keep it for the whole run.

    Args:
        policy: What [`amp_policy`][reference_impl.amp.training.amp_policy] returned.
        **kwargs: Passed to ``torch.amp.GradScaler`` (``init_scale``, ``growth_interval``, ...).

    Returns:
        An enabled scaler for float16, or None for bfloat16.

    Examples:
        >>> make_scaler(amp_policy("cpu")) is None
        True
        >>> make_scaler(amp_policy("cpu", torch.float16)).get_scale()
        65536.0
    """
    if not policy.needs_scaler:
        return None
    return torch.amp.GradScaler(policy.device_type, **kwargs)


@dataclass(frozen=True)
class StepResult:
    """What one [`train_step`][reference_impl.amp.training.train_step] did.

    Attributes:
        loss: The (unscaled) loss, as a Python float.
        stepped: False if the scaler skipped the optimizer step (inf/NaN gradients).
        scale: The scaler's scale after ``update()``, or None without a scaler.
    """

    loss: float
    stepped: bool
    scale: float | None


def _check_scaler(policy: AmpPolicy, scaler: Any) -> None:
    if scaler is not None and not policy.needs_scaler:
        raise ScalerNotNeededError(
            f"a gradient scaler was given for {policy.dtype}: bfloat16 has float32's exponent range, so "
            f"gradients do not underflow and there is nothing to scale; pass scaler=None"
        )
    if scaler is None and policy.needs_scaler:
        raise ScalerRequiredError(
            "float16 training without a gradient scaler: small gradients underflow to zero in float16; "
            f"create scaler = torch.amp.GradScaler({policy.device_type!r}) once, before the loop"
        )
    if isinstance(scaler, torch.amp.GradScaler) and not scaler.is_enabled():
        raise AutocastUnavailableError(
            "the gradient scaler is disabled (GradScaler('cuda') disables itself when CUDA is not "
            "available), so nothing would be scaled"
        )
    if scaler is not None and not isinstance(scaler, (torch.amp.GradScaler, ReferenceGradScaler)):
        raise WrongTypeError(
            f"scaler must be a torch.amp.GradScaler or a ReferenceGradScaler, got {type(scaler).__name__}; "
            "pass the scaler object (or None for bfloat16)"
        )


def train_step(
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    loss_fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
    inputs: torch.Tensor,
    targets: torch.Tensor,
    *,
    policy: AmpPolicy,
    scaler: torch.amp.GradScaler | ReferenceGradScaler | None = None,
    max_grad_norm: float | None = None,
) -> StepResult:
    """One mixed-precision training step: autocast forward, (scaled) backward, optional clipping, step.

    The forward pass and the loss run under ``torch.autocast``; ``backward()``
    and the optimizer step run outside it. With a scaler the order is
    ``scale(loss).backward()``, ``unscale_`` (only when clipping), ``step``,
    ``update``.

    Args:
        model: The model; its parameters must be float32 (autocast casts per operation).
        optimizer: The optimizer of ``model``'s parameters.
        loss_fn: ``loss_fn(outputs, targets) -> scalar loss``.
        inputs: One input batch, on the policy's device.
        targets: The matching targets.
        policy: From [`amp_policy`][reference_impl.amp.training.amp_policy].
        scaler: Required for float16 (create it once with
            [`make_scaler`][reference_impl.amp.training.make_scaler]); must be None for bfloat16.
        max_grad_norm: If given, clip the unscaled gradients to this total norm.

    Returns:
        A [`StepResult`][reference_impl.amp.training.StepResult].

    Raises:
        ScalerNotNeededError: A scaler with bfloat16.
        ScalerRequiredError: float16 without a scaler.
        AutocastUnavailableError: A disabled scaler.
        DtypeError: A parameter is not float32 (the model was converted with ``.half()``/``.to(dtype)``).

    Examples:
        >>> _ = torch.manual_seed(0)
        >>> model = torch.nn.Linear(4, 1)
        >>> opt = torch.optim.SGD(model.parameters(), lr=0.1)
        >>> policy = amp_policy("cpu")
        >>> train_step(model, opt, torch.nn.functional.mse_loss, torch.randn(8, 4), torch.randn(8, 1), policy=policy)
        StepResult(loss=..., stepped=True, scale=None)
        >>> train_step(model, opt, torch.nn.functional.mse_loss, torch.randn(8, 4), torch.randn(8, 1),
        ...            policy=policy, scaler=torch.amp.GradScaler("cpu"))
        Traceback (most recent call last):
        ...
        reference_impl.errors.ScalerNotNeededError: a gradient scaler was given for torch.bfloat16: ...
    """
    _check_scaler(policy, scaler)
    for name, param in model.named_parameters():
        if param.dtype != torch.float32:
            raise DtypeError(
                f"parameter {name!r} is {param.dtype}: keep the weights in float32 and let autocast cast "
                f"each operation (the optimizer must update float32 master weights)"
            )
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(policy.device_type, dtype=policy.dtype):
        loss = loss_fn(model(inputs), targets)
    if scaler is None:
        loss.backward()
        if max_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
        optimizer.step()
        return StepResult(loss.item(), True, None)
    scale_before = scaler.get_scale()
    scaler.scale(loss).backward()
    if max_grad_norm is not None:
        scaler.unscale_(optimizer)  # clip the true gradients, not the scaled ones
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    scaler.step(optimizer)
    scaler.update()
    scale_after = scaler.get_scale()
    # The scale only goes down (by backoff_factor < 1) when the step was skipped.
    return StepResult(loss.item(), not scale_after < scale_before, scale_after)
