"""Tests of reference_impl.storage.footprint."""

from __future__ import annotations

import warnings

import pytest
import torch
from torch import nn

from reference_impl.errors import DtypeError, NotAModuleError, NotATensorError
from reference_impl.storage import (
    ModelFootprint,
    TensorFootprint,
    format_nbytes,
    model_footprint,
    tensor_footprint,
)


def test_tensor_footprint_half_storage_example():
    fp = tensor_footprint(torch.full((100,), 1.23, dtype=torch.float16))
    assert isinstance(fp, TensorFootprint)
    assert (fp.dtype, fp.numel, fp.element_size, fp.nbytes, fp.storage_nbytes, fp.device) == (
        torch.float16,
        100,
        2,
        200,
        200,
        "cpu",
    )
    assert not fp.is_partial_view
    assert str(fp) == "float16[100] on cpu: 100 elements, 200 B"


def test_view_keeps_whole_storage():
    base = torch.zeros(1000)
    fp = tensor_footprint(base[10:20])
    assert (fp.nbytes, fp.storage_nbytes, fp.is_partial_view) == (40, 4000, True)
    assert "view of a 3.91 KiB storage" in str(fp)
    assert tensor_footprint(base[10:20].clone()).storage_nbytes == 40


def test_scalar_and_shape():
    fp = tensor_footprint(torch.tensor(3, dtype=torch.int64))
    assert (fp.shape, fp.numel, fp.nbytes) == ((), 1, 8)
    assert "int64[scalar]" in str(fp)
    assert tensor_footprint(torch.zeros(2, 3, dtype=torch.bfloat16)).shape == (2, 3)


def test_meta_tensor_allocates_nothing_but_reports_size():
    fp = tensor_footprint(torch.empty(1024, 1024, device="meta"))
    assert (fp.nbytes, fp.storage_nbytes, fp.device) == (4 * 2**20, 4 * 2**20, "meta")


def test_quint4x2_packs_two_values_per_byte():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # quantized tensors are deprecated in torch 2.13
        q = torch.quantize_per_tensor(torch.rand(10), 0.1, 0, torch.quint4x2)
    fp = tensor_footprint(q)
    assert (fp.numel, fp.element_size, fp.nbytes, fp.storage_nbytes) == (10, 1, 5, 5)


def test_footprint_is_frozen():
    fp = tensor_footprint(torch.zeros(2))
    with pytest.raises(AttributeError):
        fp.nbytes = 0  # type: ignore[misc]


@pytest.mark.parametrize("bad", [[1.0, 2.0], 3.0, None, nn.Linear(2, 2)])
def test_tensor_footprint_rejects_non_tensors(bad):
    with pytest.raises(NotATensorError, match="torch.Tensor"):
        tensor_footprint(bad)


def test_linear_model():
    fp = model_footprint(nn.Linear(1000, 1000))
    assert isinstance(fp, ModelFootprint)
    assert fp.total_nbytes == fp.parameter_nbytes == 4 * (1000 * 1000 + 1000)
    assert fp.buffer_nbytes == 0
    assert fp.size_at(torch.float32) == fp.total_nbytes
    assert fp.size_at(torch.float16) == fp.size_at(torch.bfloat16) == fp.total_nbytes // 2
    assert fp.size_at(torch.float64) == 2 * fp.total_nbytes
    assert fp.size_at(torch.float8_e4m3fn) == fp.total_nbytes // 4


def test_batchnorm_integer_buffer_keeps_its_size():
    fp = model_footprint(nn.BatchNorm1d(4))
    # weight, bias, running_mean, running_var: 4 x 4 float32; num_batches_tracked: one int64
    assert fp.nbytes_of(torch.float32) == 64
    assert fp.nbytes_of(torch.int64) == 8
    assert fp.parameter_nbytes == 32 and fp.buffer_nbytes == 40
    assert fp.size_at(torch.float16) == 32 + 8
    assert fp.nbytes_of(torch.float16) == 0


def test_tied_weights_counted_once():
    model = nn.Sequential(nn.Embedding(10, 4), nn.Linear(4, 10, bias=False))
    assert model_footprint(model).total_nbytes == 2 * 160
    model[1].weight = model[0].weight
    assert model_footprint(model).total_nbytes == 160


def test_views_of_one_storage_counted_once():
    class Views(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            base = torch.zeros(100)
            self.register_buffer("first", base[:50])
            self.register_buffer("second", base[50:])

    fp = model_footprint(Views())
    assert fp.total_nbytes == 400
    assert fp.usages[0].tensors == 1 and fp.usages[0].numel == 100


def test_mixed_dtypes_table_is_deterministic():
    model = nn.Sequential(nn.Linear(8, 8), nn.BatchNorm1d(8), nn.Linear(8, 2).half())
    fp = model_footprint(model)
    assert [u.dtype for u in fp.usages] == [torch.float32, torch.float16, torch.int64]
    table = fp.format_table()
    assert table == str(fp)
    assert table.splitlines() == [
        "| dtype   | tensors | elements | bytes |   share |",
        "|---------|--------:|---------:|------:|--------:|",
        "| float32 |       6 |      104 | 416 B |  90.4 % |",
        "| float16 |       2 |       18 |  36 B |   7.8 % |",
        "| int64   |       1 |        1 |   8 B |   1.7 % |",
        "| total   |       9 |      123 | 460 B | 100.0 % |",
    ]
    assert fp.total_nbytes == 416 + 36 + 8
    assert fp.size_at(torch.float16) == 2 * 104 + 36 + 8


def test_meta_model_counts_would_be_size():
    with torch.device("meta"):
        model = nn.Sequential(nn.Linear(100, 100), nn.Linear(100, 100))
    assert model_footprint(model).total_nbytes == 2 * 4 * (100 * 100 + 100)


def test_empty_model():
    fp = model_footprint(nn.ReLU())
    assert fp.total_nbytes == 0 and fp.usages == ()
    assert fp.format_table().splitlines()[-1] == "| total |       0 |        0 |   0 B | 0.0 % |"


def test_lazy_module_raises():
    with pytest.raises(DtypeError, match="forward pass"):
        model_footprint(nn.LazyLinear(4))


def test_model_footprint_rejects_non_modules():
    with pytest.raises(NotAModuleError, match="nn.Module"):
        model_footprint(torch.zeros(3))


@pytest.mark.parametrize("bad", [torch.int8, torch.quint4x2, "float16"])
def test_size_at_needs_floating_dtype(bad):
    fp = model_footprint(nn.Linear(2, 2))
    with pytest.raises(DtypeError):
        fp.size_at(bad)


def test_format_nbytes():
    assert format_nbytes(0) == "0 B"
    assert format_nbytes(1023) == "1023 B"
    assert format_nbytes(1024) == "1.00 KiB"
    assert format_nbytes(4_004_000) == "3.82 MiB"
    assert format_nbytes(2**50) == "1024.00 TiB"
