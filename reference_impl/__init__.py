"""Readable reference implementations behind the PyTorch precision guide.

Each submodule re-implements one piece of PyTorch in plain tensor arithmetic
(integer bit operations, explicit rounding, explicit state machines) so that a
reader can follow every step, and the test suite checks it against PyTorch's
own kernels.

Submodules:
    storage: dtype facts, memory footprints, float32 -> float16/bfloat16/float8 rounding,
        TF32 rounding and casts that report what they lost.
    quantization: affine int8 quantization, observers, dynamically quantized Linear and
        RNNCell, and a comparison of a float model with its quantized version.
    amp: a GradScaler, custom autograd functions under autocast, a checked AMP training
        step and autocast's op table.
    checkpoint: atomic saves and ``weights_only`` loads.

Every error is a class of ``reference_impl.errors`` (the four most common are re-exported here).
"""

from reference_impl.errors import (
    CastError,
    DtypeError,
    NotATensorError,
    ReferenceImplError,
)

__all__ = ["CastError", "DtypeError", "NotATensorError", "ReferenceImplError"]
__version__ = "0.1.0"
