"""Facts about each storage dtype: size, range, precision and legacy storage class.

One table answers the questions the storage articles mix up: how many bytes an
element takes (half a byte for ``quint4x2``), what range and precision a float type
has, and which deprecated ``torch.*Storage`` class used to hold it.

No quantized tensor is constructed here (quantized tensors are deprecated in
PyTorch 2.13 and warn); only the ``torch.dtype`` objects are used.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import torch

from reference_impl._checks import dtype_name
from reference_impl.errors import DtypeError
from reference_impl.storage._checks import require_dtype_object

__all__ = ["DtypeFacts", "all_storage_dtypes", "dtype_facts"]

#: The class each dtype had in the legacy typed-storage API (``torch.HalfStorage``
#: and friends, deprecated in favour of ``tensor.untyped_storage()``).
_LEGACY_STORAGE = {
    torch.float64: "DoubleStorage",
    torch.float32: "FloatStorage",
    torch.float16: "HalfStorage",
    torch.bfloat16: "BFloat16Storage",
    torch.int64: "LongStorage",
    torch.int32: "IntStorage",
    torch.int16: "ShortStorage",
    torch.int8: "CharStorage",  # int8, not characters
    torch.uint8: "ByteStorage",
    torch.bool: "BoolStorage",
    torch.qint32: "QInt32Storage",
    torch.qint8: "QInt8Storage",
    torch.quint8: "QUInt8Storage",
    torch.quint4x2: "QUInt4x2Storage",
    torch.quint2x4: "QUInt2x4Storage",
}

#: Range of the stored integer of each quantized dtype. torch.iinfo does not
#: accept quantized dtypes, so these are written out: qint8 is an int8, quint8 a
#: uint8, qint32 an int32, and quint4x2 / quint2x4 pack two 4-bit / four 2-bit
#: unsigned values into each byte.
_QUANTIZED_RANGE = {
    torch.qint8: (-128, 127),
    torch.quint8: (0, 255),
    torch.qint32: (-(2**31), 2**31 - 1),
    torch.quint4x2: (0, 15),
    torch.quint2x4: (0, 3),
}

#: Bits per element where ``dtype.itemsize`` (bytes per storage element) is not the
#: answer: the packed sub-byte quantized types.
_SUB_BYTE_BITS = {torch.quint4x2: 4, torch.quint2x4: 2}

#: float8 formats without infinities ("fn": finite; "fnuz": finite, no negative zero).
_NO_INF_NAMES = ("float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2fnuz")

_DTYPE_NAMES = (
    "float64",
    "float32",
    "float16",
    "bfloat16",
    "float8_e5m2",
    "float8_e4m3fn",
    "float8_e5m2fnuz",
    "float8_e4m3fnuz",
    "int64",
    "int32",
    "int16",
    "int8",
    "uint8",
    "bool",
    "qint32",
    "qint8",
    "quint8",
    "quint4x2",
    "quint2x4",
)

# Integer dtype of the same width, used to read and write float bit patterns.
_BITS_DTYPE = {8: torch.uint8, 16: torch.int16, 32: torch.int32, 64: torch.int64}


def all_storage_dtypes() -> tuple[torch.dtype, ...]:
    """Return the dtypes `dtype_facts` covers, in a fixed order.

    Floats (float64, float32, float16, bfloat16, the float8 formats this PyTorch
    has), then integers and bool, then the quantized dtypes.

    Returns:
        Tuple of ``torch.dtype``.

    Examples:
        >>> import torch
        >>> dtypes = all_storage_dtypes()
        >>> torch.bfloat16 in dtypes, torch.quint4x2 in dtypes, torch.complex64 in dtypes
        (True, True, False)
    """
    return tuple(getattr(torch, name) for name in _DTYPE_NAMES if hasattr(torch, name))


@dataclass(frozen=True)
class DtypeFacts:
    """What one dtype stores and costs.

    Attributes:
        dtype: The dtype described.
        bits: Bits per element (4 for ``quint4x2``, 8 for ``bool``).
        bytes_per_element: ``bits / 8`` (0.5 for ``quint4x2``).
        is_floating: True for float64 ... float8 (``dtype.is_floating_point``).
        is_quantized: True for qint8, quint8, qint32, quint4x2, quint2x4.
        min: Smallest finite value (for quantized dtypes: of the stored integer,
            before scale and zero point).
        max: Largest finite value (same remark).
        eps: Floats only: distance from 1.0 to the next larger value.
        smallest_normal: Floats only: smallest positive normal value.
        smallest_subnormal: Floats only: smallest positive value (bit pattern 1).
        has_inf: Floats only: whether the format can store infinity (False for the
            "fn" / "fnuz" float8 formats).
        legacy_storage: Name of the deprecated ``torch.*Storage`` class, or None
            (float8 never had one).
    """

    dtype: torch.dtype
    bits: int
    bytes_per_element: float
    is_floating: bool
    is_quantized: bool
    min: float | int
    max: float | int
    eps: float | None
    smallest_normal: float | None
    smallest_subnormal: float | None
    has_inf: bool | None
    legacy_storage: str | None

    def nbytes(self, numel: int) -> int:
        """Bytes needed for ``numel`` elements, rounded up to whole bytes.

        Args:
            numel: Number of elements (>= 0).

        Returns:
            ``ceil(numel * bits / 8)``.

        Examples:
            >>> import torch
            >>> dtype_facts(torch.quint4x2).nbytes(5), dtype_facts(torch.float16).nbytes(5)
            (3, 10)
        """
        return math.ceil(numel * self.bits / 8)


def _value_from_bits(pattern: int, dtype: torch.dtype, bits: int) -> float:
    """The value whose bit pattern is ``pattern`` (an int that fits ``bits``)."""
    return torch.tensor([pattern], dtype=_BITS_DTYPE[bits]).view(dtype).item()


def _bits_of(value: float, dtype: torch.dtype, bits: int) -> int:
    """The bit pattern of ``value`` rounded to ``dtype``."""
    return int(torch.tensor([value]).to(dtype).view(_BITS_DTYPE[bits]).item())


def dtype_facts(dtype: Any) -> DtypeFacts:
    """Describe a storage dtype: size, range, precision, legacy class.

    For float dtypes ``eps`` and ``smallest_subnormal`` are computed from bit
    patterns (the next pattern after 1.0, and the pattern 1), not copied from
    ``torch.finfo``: in PyTorch 2.13 ``torch.finfo(torch.float8_e5m2fnuz).eps`` is
    0.125, but the format has 2 mantissa bits and its eps is 0.25.

    Args:
        dtype: One of [`all_storage_dtypes`][reference_impl.storage.dtype_info.all_storage_dtypes].

    Returns:
        A frozen [DtypeFacts][reference_impl.storage.dtype_info.DtypeFacts].

    Raises:
        DtypeError: ``dtype`` is not a ``torch.dtype``, or not one of
            `all_storage_dtypes()` (complex, uint16, float8_e8m0fnu, ...).

    Examples:
        >>> import torch
        >>> f = dtype_facts(torch.float16)
        >>> f.bits, f.max, f.eps, f.smallest_subnormal, f.legacy_storage
        (16, 65504.0, 0.0009765625, 5.960464477539063e-08, 'HalfStorage')
        >>> q = dtype_facts(torch.quint4x2)
        >>> q.bytes_per_element, (q.min, q.max), q.eps, q.legacy_storage
        (0.5, (0, 15), None, 'QUInt4x2Storage')
        >>> dtype_facts(torch.float8_e4m3fn).legacy_storage is None
        True
    """
    require_dtype_object(dtype)
    if dtype not in all_storage_dtypes():
        names = ", ".join(dtype_name(d) for d in all_storage_dtypes())
        raise DtypeError(f"no storage facts for {dtype}; supported dtypes: {names}")

    is_quantized = dtype in _QUANTIZED_RANGE
    bits = _SUB_BYTE_BITS.get(dtype, dtype.itemsize * 8)
    legacy = _LEGACY_STORAGE.get(dtype)
    common = {
        "dtype": dtype,
        "bits": bits,
        "bytes_per_element": bits / 8,
        "is_floating": dtype.is_floating_point,
        "is_quantized": is_quantized,
        "legacy_storage": legacy,
    }
    if dtype.is_floating_point:
        info = torch.finfo(dtype)
        one_bits = _bits_of(1.0, dtype, bits)
        return DtypeFacts(
            **common,
            min=float(info.min),
            max=float(info.max),
            eps=_value_from_bits(one_bits + 1, dtype, bits) - 1.0,
            smallest_normal=float(info.smallest_normal),
            smallest_subnormal=_value_from_bits(1, dtype, bits),
            has_inf=dtype_name(dtype) not in _NO_INF_NAMES,
        )
    if is_quantized:
        low, high = _QUANTIZED_RANGE[dtype]
    elif dtype == torch.bool:
        low, high = 0, 1
    else:
        info = torch.iinfo(dtype)
        low, high = int(info.min), int(info.max)
    return DtypeFacts(
        **common,
        min=low,
        max=high,
        eps=None,
        smallest_normal=None,
        smallest_subnormal=None,
        has_inf=None,
    )
