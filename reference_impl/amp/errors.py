"""Typed errors of :mod:`reference_impl.amp`.

Each one subclasses an error of :mod:`reference_impl.errors`, so
``except ConfigError`` (a ``ValueError``) or ``except DtypeError`` (a
``TypeError``) catches it too. Messages say what was wrong and what to do.
"""

from __future__ import annotations

from reference_impl.errors import ConfigError, DtypeError, ReferenceImplError

__all__ = [
    "AutocastDtypeError",
    "AutocastUnavailableError",
    "ScalerNotNeededError",
    "ScalerRequiredError",
    "ScalerStateError",
    "UnknownDeviceTypeError",
]


class UnknownDeviceTypeError(ConfigError):
    """``device_type`` is not one this package supports (``"cpu"`` or ``"cuda"``)."""


class AutocastUnavailableError(ConfigError):
    """Autocast or a gradient scaler would silently disable itself (for example ``"cuda"`` without CUDA)."""


class AutocastDtypeError(DtypeError):
    """The device cannot autocast to the requested dtype (for example float64, or bfloat16 on an old GPU)."""


class ScalerNotNeededError(ConfigError):
    """A gradient scaler was given for bfloat16, which needs none (it has float32's exponent range)."""


class ScalerRequiredError(ConfigError):
    """float16 training was asked for without an enabled gradient scaler."""


class ScalerStateError(ReferenceImplError, RuntimeError):
    """A gradient scaler's methods were called in an order that breaks its state machine."""
