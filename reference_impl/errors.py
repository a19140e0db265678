"""Every error raised by ``reference_impl`` (and by the ``benchmarks`` command), in one family.

Every error derives from [ReferenceImplError][reference_impl.errors.ReferenceImplError]
and from the built-in exception a caller would expect (``TypeError`` for a wrong
type, ``ValueError`` for a bad value, ``FileNotFoundError``/``OSError`` for files),
so both ``except TypeError`` and ``except ReferenceImplError`` work. Each class is
named for what went wrong; each message says what was wrong and what to do.

They are defined here only; ``reference_impl.amp``, ``reference_impl.quantization`` and
``reference_impl.checkpoint`` re-export the ones they raise, so either import path works.

The family:

- `ReferenceImplError`: catch this to catch them all.
    - `WrongTypeError` (a `TypeError`): an argument is not the kind of object expected;
      `NotATensorError` (a `torch.Tensor` was expected), `NotAModuleError` (a `torch.nn.Module`,
      or an object with `state_dict()`, was expected).
    - `DtypeError` (a `TypeError`): the tensor's dtype is not one the function accepts;
      `AutocastDtypeError` (the device cannot autocast to that dtype).
    - `CastError` (an `ArithmeticError`): a cast lost information and the caller asked to raise.
    - `ConfigError` (a `ValueError`): a value outside what is supported; `UnknownDeviceTypeError`,
      `CudaUnavailableError` (and `AutocastUnavailableError`: autocast or a scaler would silently
      disable itself), `ScalerNotNeededError`, `ScalerRequiredError`, `NonFiniteInputError`,
      `NothingQuantizedError`.
    - `ScalerStateError` (a `RuntimeError`): GradScaler methods called out of order.
    - `VariantNotEngagedError` (a `RuntimeError`): a benchmark variant did not run as asked.
    - `CheckpointError`: `CheckpointNotFoundError` (a `FileNotFoundError`), `CheckpointFormatError`
      (a `ValueError`), `CheckpointWriteError` (an `OSError`).
"""

from __future__ import annotations

__all__ = [
    "AutocastDtypeError",
    "AutocastUnavailableError",
    "CastError",
    "CheckpointError",
    "CheckpointFormatError",
    "CheckpointNotFoundError",
    "CheckpointWriteError",
    "ConfigError",
    "CudaUnavailableError",
    "DtypeError",
    "NonFiniteInputError",
    "NotAModuleError",
    "NotATensorError",
    "NothingQuantizedError",
    "ReferenceImplError",
    "ScalerNotNeededError",
    "ScalerRequiredError",
    "ScalerStateError",
    "VariantNotEngagedError",
    "UnknownDeviceTypeError",
    "WrongTypeError",
]


class ReferenceImplError(Exception):
    """Base class of every error raised by ``reference_impl``: catch this to catch them all."""


# --- wrong kind of argument (TypeError) ---


class WrongTypeError(ReferenceImplError, TypeError):
    """An argument is not the kind of object the function works on (the message names what to pass)."""


class NotATensorError(WrongTypeError):
    """A ``torch.Tensor`` was expected and something else was given."""


class NotAModuleError(WrongTypeError):
    """A ``torch.nn.Module`` (or an object with ``state_dict()``) was expected and something else was given."""


class DtypeError(ReferenceImplError, TypeError):
    """The tensor has a dtype this function does not accept (for example a quantized or integer tensor)."""


class AutocastDtypeError(DtypeError):
    """The device cannot autocast to the requested dtype (for example float64, or bfloat16 on an old GPU)."""


# --- lost information ---


class CastError(ReferenceImplError, ArithmeticError):
    """A cast lost information (overflow to inf, underflow to zero, NaN) and the caller asked to raise."""


# --- bad values (ValueError) ---


class ConfigError(ReferenceImplError, ValueError):
    """An argument has a value outside what the function supports (a scale <= 0, an unknown device)."""


class UnknownDeviceTypeError(ConfigError):
    """``device_type`` is not one this package supports (``"cpu"`` or ``"cuda"``)."""


class CudaUnavailableError(ConfigError):
    """CUDA was asked for, but ``torch.cuda.is_available()`` is False on this machine."""


class AutocastUnavailableError(CudaUnavailableError):
    """Autocast or a gradient scaler would silently disable itself (for example ``"cuda"`` without CUDA)."""


class ScalerNotNeededError(ConfigError):
    """A gradient scaler was given for bfloat16, which needs none (it has float32's exponent range)."""


class ScalerRequiredError(ConfigError):
    """float16 training was asked for without an enabled gradient scaler."""


class NonFiniteInputError(ConfigError):
    """The float tensor to quantize holds NaN or inf, which have no integer code."""


class NothingQuantizedError(ConfigError):
    """A "quantized" model is still entirely float: no module or weight was replaced."""


# --- state machines and files ---


class ScalerStateError(ReferenceImplError, RuntimeError):
    """A gradient scaler's methods were called in an order that breaks its state machine."""


class VariantNotEngagedError(ReferenceImplError, RuntimeError):
    """A measured variant did not run as asked (TF32 off, a float8 product on float32 operands,
    timers that disagree): its figure must not be published."""


class CheckpointError(ReferenceImplError):
    """Base class of the errors raised by ``reference_impl.checkpoint``."""


class CheckpointNotFoundError(CheckpointError, FileNotFoundError):
    """The checkpoint file does not exist."""


class CheckpointFormatError(CheckpointError, ValueError):
    """The file is not a loadable checkpoint (truncated, not written by save_checkpoint, or missing a state)."""


class CheckpointWriteError(CheckpointError, OSError):
    """Writing the checkpoint failed; the previous file at the path, if any, is unchanged."""
