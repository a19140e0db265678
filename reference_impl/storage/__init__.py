"""Storage dtypes: bit-exact float32 -> float16/bfloat16 rounding, dtype facts,
memory footprints and checked casts.

Modules:
    rounding: float32 <-> float16 / bfloat16 with integer bit operations.
    dtype_info: bits, range, precision and legacy storage class of each dtype.
    footprint: bytes held by a tensor (view vs storage) and by a model.
    casting: float casts that raise or warn when values overflow or underflow.
    float8: float32 <-> float8 e4m3fn / e5m2, saturating or not, with bit operations.
    tf32: TF32 rounding of float32 inputs (what a TF32 matmul does to its operands).
"""

from reference_impl.storage.dtype_info import DtypeFacts, all_storage_dtypes, dtype_facts
from reference_impl.storage.footprint import (
    DtypeUsage,
    ModelFootprint,
    TensorFootprint,
    format_nbytes,
    model_footprint,
    tensor_footprint,
)
from reference_impl.storage.rounding import (
    ExhaustiveSummary,
    bfloat16_to_float32,
    exhaustive_check,
    float16_to_float32,
    float32_to_bfloat16,
    float32_to_bfloat16_bits,
    float32_to_float16,
    float32_to_float16_bits,
)
from reference_impl.storage.float8 import (
    Float8Format,
    float8_format,
    float8_to_float32,
    float32_to_float8,
    float32_to_float8_bits,
)
from reference_impl.storage.tf32 import TF32_ROUNDINGS, float32_to_tf32
from reference_impl.storage.casting import (
    CastReport,
    CastWarning,
    Offender,
    check_cast,
    safe_cast,
)

__all__ = [
    "CastReport",
    "CastWarning",
    "DtypeFacts",
    "DtypeUsage",
    "ExhaustiveSummary",
    "Float8Format",
    "ModelFootprint",
    "Offender",
    "TF32_ROUNDINGS",
    "TensorFootprint",
    "all_storage_dtypes",
    "bfloat16_to_float32",
    "check_cast",
    "dtype_facts",
    "exhaustive_check",
    "float16_to_float32",
    "float32_to_bfloat16",
    "float32_to_bfloat16_bits",
    "float32_to_float16",
    "float32_to_float16_bits",
    "float32_to_float8",
    "float32_to_float8_bits",
    "float32_to_tf32",
    "float8_format",
    "float8_to_float32",
    "format_nbytes",
    "model_footprint",
    "safe_cast",
    "tensor_footprint",
]
