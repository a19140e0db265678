"""Automatic mixed precision: dynamic loss scaling, custom autograd Functions, a safe training step.

Modules:
    grad_scaler: the dynamic loss-scaling rule and a readable ``torch.amp.GradScaler``.
    functions: autograd Functions decorated with ``torch.amp.custom_fwd`` / ``custom_bwd``.
    training: a device-agnostic AMP training step that refuses setups where autocast or
        the scaler would not take effect.
    autocast_table: which dtype each operation produces under autocast, probed on the
        installed torch.

The typed errors are defined in ``reference_impl.errors`` and re-exported here.
"""

from reference_impl.amp.autocast_table import format_autocast_table, probe_autocast
from reference_impl.errors import (
    AutocastDtypeError,
    AutocastUnavailableError,
    ScalerNotNeededError,
    ScalerRequiredError,
    ScalerStateError,
    UnknownDeviceTypeError,
)
from reference_impl.amp.functions import DtypeLog, logsumexp_float32, matmul_with_dtype_log
from reference_impl.amp.grad_scaler import ReferenceGradScaler, to_float32, update_scale
from reference_impl.amp.training import (
    AmpPolicy,
    StepResult,
    amp_policy,
    checked_autocast,
    has_native_bfloat16,
    make_scaler,
    train_step,
)

__all__ = [
    "AmpPolicy",
    "AutocastDtypeError",
    "AutocastUnavailableError",
    "DtypeLog",
    "ReferenceGradScaler",
    "ScalerNotNeededError",
    "ScalerRequiredError",
    "ScalerStateError",
    "StepResult",
    "UnknownDeviceTypeError",
    "amp_policy",
    "checked_autocast",
    "format_autocast_table",
    "has_native_bfloat16",
    "logsumexp_float32",
    "make_scaler",
    "matmul_with_dtype_log",
    "probe_autocast",
    "to_float32",
    "train_step",
    "update_scale",
]
