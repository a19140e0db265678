"""The bytes the dtype table promises are the bytes real storages hold.

dtype_facts(dtype).nbytes(n) (shown on storage/dtypes.md as "bytes/value") is checked
against ``untyped_storage().nbytes()`` of real tensors, quantized ones included
(quint4x2 / quint2x4 pack several values per byte although element_size() says 1).
"""

from __future__ import annotations

import warnings

import pytest
import torch

from reference_impl.storage import all_storage_dtypes, dtype_facts

SIZES = [1, 2, 5, 1000]


def _make(dtype: torch.dtype, numel: int) -> torch.Tensor:
    facts = dtype_facts(dtype)
    if not facts.is_quantized:
        return torch.zeros(numel, dtype=dtype)
    values = torch.linspace(0, facts.max, numel) if facts.min == 0 else torch.linspace(-100, 100, numel)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # quantized tensor creation is deprecated in torch 2.13
        return torch.quantize_per_tensor(values, scale=1.0, zero_point=0, dtype=dtype)


@pytest.mark.parametrize("numel", SIZES)
@pytest.mark.parametrize("dtype", all_storage_dtypes(), ids=str)
def test_storage_bytes_match_the_table(dtype, numel):
    t = _make(dtype, numel)
    facts = dtype_facts(dtype)
    assert t.untyped_storage().nbytes() == facts.nbytes(numel)
    assert t.element_size() == dtype.itemsize  # the "itemsize" column


@pytest.mark.parametrize("dtype", [torch.quint4x2, torch.quint2x4], ids=str)
def test_packed_types_report_one_byte_per_element(dtype):
    t = _make(dtype, 8)
    per_byte = 8 // dtype_facts(dtype).bits
    assert t.element_size() == 1
    assert t.untyped_storage().nbytes() == 8 // per_byte


def test_qint32_saves_nothing_over_float32():
    x = torch.linspace(-1, 1, 100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated in torch 2.13
        q = torch.quantize_per_tensor(x, scale=0.01, zero_point=0, dtype=torch.qint32)
    assert q.untyped_storage().nbytes() == x.untyped_storage().nbytes() == 400


@pytest.mark.parametrize("name", ["ByteStorage", "CharStorage", "ShortStorage", "IntStorage", "QInt32Storage",
                                  "FloatStorage", "DoubleStorage", "HalfStorage", "BFloat16Storage", "BoolStorage"])
def test_legacy_class_names_in_the_table_hold_that_dtype(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # TypedStorage is deprecated
        storage = getattr(torch, name)(3)
    assert dtype_facts(storage.dtype).legacy_storage == name
    assert storage.element_size() == storage.dtype.itemsize
