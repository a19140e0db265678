"""Readable reference implementations behind the PyTorch precision guide.

Each submodule re-implements one piece of PyTorch in plain tensor arithmetic
(integer bit operations, explicit rounding, explicit state machines) so that a
reader can follow every step, and the test suite checks it against PyTorch's
own kernels.

Submodules:
    storage: dtype facts, memory footprints and float32 -> float16/bfloat16 rounding.
"""

from reference_impl.errors import (
    CastError,
    DtypeError,
    NotATensorError,
    ReferenceImplError,
)

__all__ = ["CastError", "DtypeError", "NotATensorError", "ReferenceImplError"]
__version__ = "0.1.0"
