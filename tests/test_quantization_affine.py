"""reference_impl.quantization.affine and .observers against PyTorch, plus typed errors.

torch 2.13 deprecates torch.ao.quantization and the quantized dtypes; the
comparisons here need them, so each call runs inside ``legacy_quantization()``,
which ignores exactly those two warnings.
"""

from __future__ import annotations

import contextlib
import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.errors import ConfigError, DtypeError, NotATensorError, ReferenceImplError
from reference_impl.quantization import (
    NonFiniteInputError,
    choose_qparams,
    dequantize_per_channel,
    dequantize_per_tensor,
    minmax,
    moving_average_minmax,
    per_channel_minmax,
    quant_range,
    quantize_per_channel,
    quantize_per_tensor,
)

TORCH_DTYPE = {torch.int8: torch.qint8, torch.uint8: torch.quint8, torch.int32: torch.qint32}


@contextlib.contextmanager
def legacy_quantization():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings(
            "ignore", message="torch.quantize_per_tensor, torch.quantize_per_channel", category=UserWarning
        )
        yield


def devices():
    return [pytest.param("cpu"), pytest.param("cuda", marks=pytest.mark.cuda)]


@pytest.mark.parametrize("dtype", [torch.int8, torch.uint8, torch.int32])
def test_quantize_per_tensor_matches_torch(dtype):
    torch.manual_seed(0)
    x = torch.randn(4096) * 3
    scale, zp = 0.037, {torch.int8: -3, torch.uint8: 120, torch.int32: 7}[dtype]
    with legacy_quantization():
        expected = torch.quantize_per_tensor(x, scale, zp, TORCH_DTYPE[dtype]).int_repr()
    got = quantize_per_tensor(x, scale, zp, dtype)
    assert got.dtype == expected.dtype
    assert torch.equal(got, expected)
    assert torch.allclose(dequantize_per_tensor(got, scale, zp), (expected.to(torch.int64) - zp) * torch.tensor(scale))


def test_quantize_per_channel_matches_torch():
    torch.manual_seed(1)
    w = torch.randn(16, 32) * torch.logspace(-2, 1, 16).unsqueeze(1)
    lo, hi = torch.aminmax(w, dim=1)
    p = choose_qparams(lo, hi, torch.int8, symmetric=True)
    with legacy_quantization():
        q = torch.quantize_per_channel(w, p.scale.double(), p.zero_point, 0, torch.qint8)
        expected = q.int_repr()
    got = quantize_per_channel(w, p.scale, p.zero_point, 0, torch.int8)
    assert torch.equal(got, expected)
    assert torch.allclose(dequantize_per_channel(got, p.scale, p.zero_point, 0), w, atol=float(p.scale.max()) / 2 + 1e-7)


@pytest.mark.parametrize(
    "observer,kwargs,dtype,symmetric,reduce_range",
    [
        ("MinMaxObserver", {}, torch.uint8, False, False),
        # reduce_range=True warns that it will be deprecated: quant_min/quant_max say the same
        ("MinMaxObserver", {"quant_min": 0, "quant_max": 127}, torch.uint8, False, True),
        ("MinMaxObserver", {"qscheme": torch.per_tensor_symmetric}, torch.int8, True, False),
        ("MinMaxObserver", {"qscheme": torch.per_tensor_symmetric}, torch.uint8, True, False),
    ],
)
def test_minmax_observer_matches_torch(observer, kwargs, dtype, symmetric, reduce_range):
    from torch.ao.quantization import observer as obs

    torch.manual_seed(2)
    batches = [torch.randn(64) * (i + 1) + i for i in range(4)]
    with legacy_quantization():
        ob = getattr(obs, observer)(dtype=TORCH_DTYPE[dtype], **kwargs)
        for b in batches:
            ob(b)
        scale, zp = ob.calculate_qparams()
    state = None
    for b in batches:
        state = minmax(b, state)
    p = choose_qparams(state.min_val, state.max_val, dtype, symmetric=symmetric, reduce_range=reduce_range)
    assert torch.equal(state.min_val, ob.min_val) and torch.equal(state.max_val, ob.max_val)
    assert p.scale.item() == pytest.approx(scale.item(), rel=1e-6)
    assert p.zero_point.item() == zp.item()


def test_moving_average_observer_matches_torch():
    from torch.ao.quantization import MovingAverageMinMaxObserver

    torch.manual_seed(3)
    batches = [torch.randn(64) * (1 + (i == 2) * 50) for i in range(5)]
    with legacy_quantization():
        ob = MovingAverageMinMaxObserver(averaging_constant=0.1)
        for b in batches:
            ob(b)
    state = None
    for b in batches:
        state = moving_average_minmax(b, state, averaging_constant=0.1)
    assert state.min_val.item() == pytest.approx(ob.min_val.item(), rel=1e-6)
    assert state.max_val.item() == pytest.approx(ob.max_val.item(), rel=1e-6)


def test_per_channel_observer_matches_torch():
    from torch.ao.quantization import PerChannelMinMaxObserver

    torch.manual_seed(4)
    w = torch.randn(8, 20)
    with legacy_quantization():
        ob = PerChannelMinMaxObserver(ch_axis=0, dtype=torch.qint8, qscheme=torch.per_channel_symmetric)
        ob(w)
        scale, zp = ob.calculate_qparams()
    r = per_channel_minmax(w, axis=0)
    p = choose_qparams(r.min_val, r.max_val, torch.int8, symmetric=True)
    assert torch.equal(r.min_val, ob.min_val) and torch.equal(r.max_val, ob.max_val)
    assert torch.allclose(p.scale, scale.float(), rtol=1e-6)
    assert torch.equal(p.zero_point, zp.to(torch.int64))


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.floats(-1000, 1000, allow_nan=False, width=32), min_size=1, max_size=64),
    dtype=st.sampled_from([torch.int8, torch.uint8]),
    symmetric=st.booleans(),
)
def test_round_trip_loses_at_most_half_a_step(values, dtype, symmetric):
    """For values inside the calibrated range, |dequantize(quantize(x)) - x| <= scale / 2."""
    x = torch.tensor(values, dtype=torch.float32)
    p = choose_qparams(x.min(), x.max(), dtype, symmetric=symmetric)
    q = quantize_per_tensor(x, p.scale, p.zero_point, dtype)
    back = dequantize_per_tensor(q, p.scale, p.zero_point)
    lo = p.scale * (p.qmin - p.zero_point)
    hi = p.scale * (p.qmax - p.zero_point)
    inside = (x >= lo) & (x <= hi)
    # float32 arithmetic adds at most a few ulps of the values involved
    slack = 1e-5 * x.abs().max().item() + 1e-6
    err = (back - x).abs()[inside]
    assert bool((err <= p.scale.item() / 2 + slack).all()), (err.max(), p.scale)


@settings(max_examples=50, deadline=None)
@given(values=st.lists(st.floats(-100, 100, allow_nan=False, width=32), min_size=2, max_size=32))
def test_affine_range_covers_the_data(values):
    """Affine qparams from min/max put every observed value inside the representable range."""
    x = torch.tensor(values)
    p = choose_qparams(x.min(), x.max(), torch.uint8)
    back = dequantize_per_tensor(quantize_per_tensor(x, p.scale, p.zero_point, torch.uint8), p.scale, p.zero_point)
    assert bool(((back - x).abs() <= p.scale * 0.5 + 1e-4 * (1 + x.abs())).all())


@pytest.mark.parametrize("device", devices())
def test_runs_on_device(device):
    x = torch.linspace(-1, 1, 11, device=device)
    q = quantize_per_tensor(x, 0.1, 0, torch.int8)
    assert q.device.type == device
    assert dequantize_per_tensor(q, 0.1, 0).device.type == device


@pytest.mark.parametrize(
    "call,error",
    [
        (lambda: quantize_per_tensor(torch.ones(2), 0.0, 0, torch.int8), ConfigError),
        (lambda: quantize_per_tensor(torch.ones(2), -1.0, 0, torch.int8), ConfigError),
        (lambda: quantize_per_tensor(torch.ones(2), float("nan"), 0, torch.int8), ConfigError),
        (lambda: quantize_per_tensor(torch.ones(2), 0.1, 300, torch.uint8), ConfigError),
        (lambda: quantize_per_tensor(torch.ones(2), 0.1, -1, torch.uint8), ConfigError),
        (lambda: quantize_per_tensor(torch.ones(2), 0.1, 0.5, torch.int8), ConfigError),
        (lambda: quantize_per_tensor(torch.ones(2), 0.1, 0, torch.float16), DtypeError),
        (lambda: quantize_per_tensor(torch.ones(2), 0.1, 0, torch.qint8), DtypeError),
        (lambda: quantize_per_tensor(torch.ones(2, dtype=torch.int32), 0.1, 0, torch.int8), DtypeError),
        (lambda: quantize_per_tensor(torch.tensor([1.0, float("nan")]), 0.1, 0, torch.int8), NonFiniteInputError),
        (lambda: quantize_per_tensor(torch.tensor([float("inf")]), 0.1, 0, torch.int8), NonFiniteInputError),
        (lambda: quantize_per_tensor([1.0], 0.1, 0, torch.int8), NotATensorError),
        (lambda: quantize_per_channel(torch.ones(2, 3), [0.1], [0], 0, torch.int8), ConfigError),
        (lambda: choose_qparams(1.0, -1.0), ConfigError),
        (lambda: quant_range(torch.int32, reduce_range=True), ConfigError),
        (lambda: moving_average_minmax(torch.ones(2), averaging_constant=0), ConfigError),
    ],
)
def test_typed_errors(call, error):
    with pytest.raises(error) as info:
        call()
    assert isinstance(info.value, ReferenceImplError)
    assert len(str(info.value)) > 20  # a message that says what to do


def test_nan_error_is_also_a_value_error():
    with pytest.raises(ValueError, match="NaN/inf"):
        quantize_per_tensor(torch.tensor([float("nan")]), 0.1, 0, torch.int8)


def test_quantize_per_tensor_matches_torchao_bit_for_bit_on_ties():
    # scale 0.05: x * (1 / scale) = x * 20 lands exactly on .5 for many float32 values
    quantize_affine = pytest.importorskip("torchao.quantization.quant_primitives").quantize_affine
    x = torch.randn(1 << 20, generator=torch.Generator().manual_seed(0)) * 4
    expected = quantize_affine(x, (x.numel(),), torch.tensor([0.05]), torch.tensor([3]), torch.int8, -128, 127)
    ties = ((x * (1 / torch.tensor(0.05))).frac().abs() == 0.5).sum()
    assert ties > 0
    assert torch.equal(quantize_per_tensor(x, 0.05, 3, torch.int8), expected)


@pytest.mark.cuda
def test_quantize_per_channel_on_cuda_matches_cpu():
    torch.manual_seed(2)
    w = torch.randn(8, 16) * torch.logspace(-2, 1, 8).unsqueeze(1)
    lo, hi = torch.aminmax(w, dim=1)
    p = choose_qparams(lo, hi, torch.int8, symmetric=True)
    cpu = quantize_per_channel(w, p.scale, p.zero_point, 0, torch.int8)
    gpu = quantize_per_channel(w.cuda(), p.scale.cuda(), p.zero_point.cuda(), 0, torch.int8)
    assert gpu.device.type == "cuda"
    assert torch.equal(cpu, gpu.cpu())
    back = dequantize_per_channel(gpu, p.scale.cuda(), p.zero_point.cuda(), 0)
    assert torch.equal(back.cpu(), dequantize_per_channel(cpu, p.scale, p.zero_point, 0))
