"""Tests of reference_impl.storage.dtype_info."""

from __future__ import annotations

import pytest
import torch

from reference_impl.errors import DtypeError
from reference_impl.storage import DtypeFacts, all_storage_dtypes, dtype_facts

LEGACY = {
    torch.float16: "HalfStorage",
    torch.float32: "FloatStorage",
    torch.float64: "DoubleStorage",
    torch.bfloat16: "BFloat16Storage",
    torch.uint8: "ByteStorage",
    torch.int8: "CharStorage",
    torch.int16: "ShortStorage",
    torch.int32: "IntStorage",
    torch.int64: "LongStorage",
    torch.bool: "BoolStorage",
    torch.qint8: "QInt8Storage",
    torch.quint8: "QUInt8Storage",
    torch.qint32: "QInt32Storage",
    torch.quint4x2: "QUInt4x2Storage",
}
FLOATS = [d for d in all_storage_dtypes() if d.is_floating_point]


def test_all_storage_dtypes_covers_the_brief():
    dtypes = all_storage_dtypes()
    assert len(set(dtypes)) == len(dtypes)
    for d in [*LEGACY, torch.float8_e4m3fn, torch.float8_e5m2]:
        assert d in dtypes
    for name in ("float8_e4m3fnuz", "float8_e5m2fnuz"):
        if hasattr(torch, name):
            assert getattr(torch, name) in dtypes
    assert torch.complex64 not in dtypes


@pytest.mark.parametrize("dtype", list(LEGACY), ids=str)
def test_legacy_storage_names(dtype):
    name = dtype_facts(dtype).legacy_storage
    assert name == LEGACY[dtype]
    assert hasattr(torch, name)


@pytest.mark.parametrize("dtype", all_storage_dtypes(), ids=str)
def test_every_legacy_name_exists_or_is_none(dtype):
    facts = dtype_facts(dtype)
    assert isinstance(facts, DtypeFacts)
    if facts.legacy_storage is not None:
        assert hasattr(torch, facts.legacy_storage)
    if "float8" in str(dtype):
        assert facts.legacy_storage is None


@pytest.mark.parametrize("dtype", all_storage_dtypes(), ids=str)
def test_size_per_element(dtype):
    facts = dtype_facts(dtype)
    assert facts.bytes_per_element == facts.bits / 8
    if not facts.is_quantized:
        assert facts.bits == torch.empty(0, dtype=dtype).element_size() * 8


def test_packed_quantized_sizes():
    assert dtype_facts(torch.quint4x2).bits == 4
    assert dtype_facts(torch.quint4x2).bytes_per_element == 0.5
    assert dtype_facts(torch.quint4x2).nbytes(5) == 3
    assert dtype_facts(torch.qint32).bytes_per_element == 4.0
    assert dtype_facts(torch.float16).nbytes(100) == 200


def test_quantized_ranges_are_the_stored_integer_ranges():
    ranges = {d: (dtype_facts(d).min, dtype_facts(d).max) for d in (torch.qint8, torch.quint8, torch.qint32, torch.quint4x2)}
    assert ranges == {
        torch.qint8: (-128, 127),
        torch.quint8: (0, 255),
        torch.qint32: (-(2**31), 2**31 - 1),
        torch.quint4x2: (0, 15),
    }
    for d in ranges:
        facts = dtype_facts(d)
        assert facts.is_quantized and not facts.is_floating and facts.eps is None


@pytest.mark.parametrize("dtype", [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8], ids=str)
def test_integer_ranges_match_iinfo(dtype):
    facts = dtype_facts(dtype)
    assert (facts.min, facts.max) == (torch.iinfo(dtype).min, torch.iinfo(dtype).max)
    assert facts.smallest_normal is None and facts.has_inf is None


def test_bool():
    facts = dtype_facts(torch.bool)
    assert (facts.bits, facts.min, facts.max, facts.is_floating) == (8, 0, 1, False)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_float_facts_are_true_of_the_format(dtype):
    facts = dtype_facts(dtype)
    info = torch.finfo(dtype)
    assert facts.is_floating and not facts.is_quantized
    assert (facts.min, facts.max, facts.smallest_normal) == (info.min, info.max, info.smallest_normal)

    def rounded(value: float) -> float:
        return torch.tensor([value], dtype=torch.float64).to(dtype).double().item()

    # eps: 1 + eps is representable, 1 + eps/2 is a tie that rounds to even 1.0.
    assert rounded(1 + facts.eps) == 1 + facts.eps
    assert rounded(1 + facts.eps / 2) == 1.0
    # smallest subnormal: representable, and half of it rounds to 0.
    assert rounded(facts.smallest_subnormal) == facts.smallest_subnormal
    assert rounded(facts.smallest_subnormal / 2) == 0.0
    assert facts.smallest_subnormal < facts.smallest_normal
    assert rounded(facts.max) == facts.max


def test_float_examples():
    f16 = dtype_facts(torch.float16)
    assert (f16.max, f16.eps, f16.smallest_normal, f16.smallest_subnormal) == (65504.0, 2.0**-10, 2.0**-14, 2.0**-24)
    bf16 = dtype_facts(torch.bfloat16)
    assert (bf16.eps, bf16.smallest_normal) == (2.0**-7, 2.0**-126)
    assert dtype_facts(torch.float8_e4m3fn).max == 448.0
    assert dtype_facts(torch.float8_e4m3fn).has_inf is False
    assert dtype_facts(torch.float8_e5m2).has_inf is True


@pytest.mark.skipif(not hasattr(torch, "float8_e5m2fnuz"), reason="no float8_e5m2fnuz")
def test_e5m2fnuz_eps_is_two_mantissa_bits():
    # torch.finfo(torch.float8_e5m2fnuz).eps says 0.125 in torch 2.13; the format's eps is 0.25.
    assert dtype_facts(torch.float8_e5m2fnuz).eps == 0.25


def test_facts_are_frozen():
    with pytest.raises(AttributeError):
        dtype_facts(torch.float16).bits = 8  # type: ignore[misc]


@pytest.mark.parametrize("bad", [torch.complex64, torch.uint16])
def test_unsupported_dtype_raises(bad):
    with pytest.raises(DtypeError, match="supported dtypes"):
        dtype_facts(bad)


def test_non_dtype_raises_dtype_error():
    with pytest.raises(DtypeError, match="torch.dtype") as info:
        dtype_facts("float16")
    assert isinstance(info.value, TypeError)
