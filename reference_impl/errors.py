"""Typed errors raised by :mod:`reference_impl`.

Every error derives from [ReferenceImplError][reference_impl.errors.ReferenceImplError]
and from the built-in exception a caller would expect (``TypeError`` for a wrong
type, ``ValueError`` for a bad value), so both ``except TypeError`` and
``except ReferenceImplError`` work. Messages say what was wrong and what to do.
"""

from __future__ import annotations


class ReferenceImplError(Exception):
    """Base class of every error raised by :mod:`reference_impl`."""


class NotATensorError(ReferenceImplError, TypeError):
    """A ``torch.Tensor`` (or ``nn.Module``) was expected and something else was given."""


class DtypeError(ReferenceImplError, TypeError):
    """The tensor has a dtype this function does not accept (for example a quantized or integer tensor)."""


class CastError(ReferenceImplError, ArithmeticError):
    """A cast lost information (overflow to inf, underflow to zero, NaN) and the caller asked to raise."""


class ConfigError(ReferenceImplError, ValueError):
    """An argument has a value outside what the function supports (a scale <= 0, an unknown device)."""
