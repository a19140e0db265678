"""Observers and qparams on every axis, every integer dtype and the edge ranges, against torch.ao.

``test_quantization_affine.py`` compares the references with PyTorch on axis 0 and on random
data: a per-channel observer that ignored its ``axis``, or qparams that went wrong only when every
value is negative, passed it (issue 39). Here each of these is a case of its own:

* every axis, negative ones included, of 2-D to 4-D inputs (a 1-D input has no channel axis to
  observe: torch's ``PerChannelMinMaxObserver`` refuses it too), and of 1-D to 4-D inputs for
  ``quantize_per_channel``;
* every integer dtype ``choose_qparams`` accepts (int8, uint8, int32 as torch's qint8, quint8,
  qint32), affine and symmetric, with and without ``reduce_range``;
* explicit edge ranges as parametrized cases: all negative, all positive, constant, zeros, one
  element, a range too small for any scale above epsilon;
* Hypothesis properties whose data is always all-negative or all-positive, rather than only when
  it happens to be drawn.

The oracle is torch.ao.quantization's observers and ``torch.quantize_per_channel``, each called
inside ``legacy_quantization()`` (from ``test_quantization_affine.py``), which ignores exactly torch
2.13's two deprecation warnings; every other warning stays an error.
"""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.quantization import (
    choose_qparams,
    dequantize_per_channel,
    minmax,
    per_channel_minmax,
    quantize_per_channel,
)
from tests.test_quantization_affine import TORCH_DTYPE, legacy_quantization

# (id, dtype, symmetric, reduce_range). reduce_range is given to torch as quant_min/quant_max, as in
# test_quantization_affine.py (torch's reduce_range=True warns that it will be deprecated).
CONFIGS = [
    ("int8-affine", torch.int8, False, False),
    ("int8-symmetric", torch.int8, True, False),
    ("uint8-affine", torch.uint8, False, False),
    ("uint8-symmetric", torch.uint8, True, False),
    ("int32-affine", torch.int32, False, False),
    ("int32-symmetric", torch.int32, True, False),
    ("int8-affine-reduce_range", torch.int8, False, True),
    ("int8-symmetric-reduce_range", torch.int8, True, True),
    ("uint8-affine-reduce_range", torch.uint8, False, True),
    # uint8 symmetric with reduce_range: the reference's zero point is 64, the middle of the 0..127
    # it quantizes to, where torch keeps 128 (choose_qparams says so):
    # test_symmetric_uint8_reduce_range_keeps_its_zero_point_inside_the_range.
]
REDUCED = {torch.int8: (-64, 63), torch.uint8: (0, 127)}

# The int32 affine zero point needs more than float32's 24 bits on some edges ("all-negative-small",
# "one-negative-element", "skewed"): these tests found that choose_qparams computed it in float32
# (off by up to 64 codes); it subtracts in integers now, as torch does.
# Edge ranges: (id, values). Each is the whole calibration data of a per-tensor observer.
EDGES = [
    ("all-negative", [-3.0, -1.5, -0.25]),
    ("all-negative-small", [-2e-3, -1e-3]),
    ("all-positive", [0.25, 1.5, 3.0]),
    ("constant-negative", [-2.0, -2.0, -2.0, -2.0]),
    ("constant-positive", [2.0, 2.0, 2.0, 2.0]),
    ("zeros", [0.0, 0.0, 0.0]),
    ("negative-zeros", [-0.0, -0.0]),
    ("one-element", [0.7]),
    ("one-negative-element", [-0.7]),
    ("mixed", [-1.0, 3.0]),
    ("skewed", [-0.1, 100.0]),
    ("below-epsilon", [1e-9, 2e-9]),
    ("below-epsilon-negative", [-2e-9, -1e-9]),
    ("wide", [-3e4, 5e4]),
]


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """Tiny tensors: on a loaded machine a pool of threads costs ~15 ms per reduction, one thread ~10 us."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def torch_observer(kind: str, dtype: torch.dtype, symmetric: bool, reduce_range: bool, **kwargs):
    """torch.ao's observer for a reference config (constructed inside legacy_quantization())."""
    from torch.ao.quantization import observer as obs

    per_channel = kind == "PerChannelMinMaxObserver"
    qscheme = {(False, False): torch.per_tensor_affine, (False, True): torch.per_tensor_symmetric,
               (True, False): torch.per_channel_affine, (True, True): torch.per_channel_symmetric}[per_channel, symmetric]
    if reduce_range:
        kwargs.update(zip(("quant_min", "quant_max"), REDUCED[dtype]))
    return getattr(obs, kind)(dtype=TORCH_DTYPE[dtype], qscheme=qscheme, **kwargs)


def assert_same_qparams(p, scale, zero_point):
    """Scale and zero point bit for bit: both are float32 arithmetic on the same min and max."""
    assert torch.equal(p.scale.reshape(-1), scale.reshape(-1)), (p.scale, scale)
    assert torch.equal(p.zero_point.reshape(-1), zero_point.reshape(-1).to(torch.int64)), (p.zero_point, zero_point)


def _edge_cases():
    for edge, values in EDGES:
        for config in CONFIGS:
            marks = []
            yield pytest.param(values, *config[1:], id=f"{edge}-{config[0]}", marks=marks)


@pytest.mark.parametrize("values,dtype,symmetric,reduce_range", list(_edge_cases()))
def test_qparams_match_torch_on_edge_ranges(values, dtype, symmetric, reduce_range):
    """minmax + choose_qparams equal MinMaxObserver on each edge range, for every dtype and qscheme.

    Protects the widening of the range to include 0 on each side (all-negative data needs max
    clamped up to 0, all-positive data min clamped down to 0), the epsilon floor of the scale
    (constant, zeros, one element, below epsilon) and the zero point of each dtype.
    """
    x = torch.tensor(values)
    with legacy_quantization():
        ob = torch_observer("MinMaxObserver", dtype, symmetric, reduce_range)
        ob(x)
        scale, zero_point = ob.calculate_qparams()
    r = minmax(x)
    assert torch.equal(r.min_val, ob.min_val) and torch.equal(r.max_val, ob.max_val)
    p = choose_qparams(r.min_val, r.max_val, dtype, symmetric=symmetric, reduce_range=reduce_range)
    assert_same_qparams(p, scale, zero_point)


@pytest.mark.parametrize("values", [pytest.param(v, id=e) for e, v in EDGES if max(v) <= 0 and min(v) < -1e-4])
@pytest.mark.parametrize("dtype", [torch.int8, torch.uint8])
def test_affine_qparams_of_all_negative_data_put_zero_on_the_top_code(values, dtype):
    """All-negative data: 0.0 is the range's top, so it gets the top code and min the bottom one.

    Stated without torch: the range [min, 0] spans qmin..qmax exactly (scale = -min / (qmax - qmin)),
    for any range wide enough that the scale is above its epsilon floor.
    """
    x = torch.tensor(values)
    p = choose_qparams(x.min(), x.max(), dtype)
    assert p.zero_point.item() == p.qmax
    assert p.scale.item() == pytest.approx(-x.min().item() / (p.qmax - p.qmin), rel=1e-6)


def _axis_cases():
    for ndim in (2, 3, 4):
        for axis in range(-ndim, ndim):
            for config in CONFIGS:
                marks = []
                yield pytest.param(ndim, axis, *config[1:], id=f"{ndim}d-axis{axis}-{config[0]}", marks=marks)


SIZES = (7, 6, 5, 4)  # distinct sizes: an observer that reduces over the wrong axis gets the wrong channel count


def channels_of_every_kind(shape: tuple[int, ...], axis: int, seed: int) -> torch.Tensor:
    """Random data whose channels along ``axis`` cycle through the edge kinds.

    Channel 0 all-negative, 1 all-positive, 2 constant positive, 3 zeros, 4 mixed signs,
    5 constant negative, 6 below epsilon: each axis has channels of at least four kinds.
    """
    kinds = [
        lambda r: -(r.abs() + 0.25),
        lambda r: r.abs() + 0.25,
        lambda r: torch.full_like(r, 1.5),
        torch.zeros_like,
        lambda r: r * 3,
        lambda r: torch.full_like(r, -2.0),
        lambda r: r * 1e-9,
    ]
    x = torch.randn(shape, generator=torch.Generator().manual_seed(seed)).movedim(axis, 0).contiguous()
    for c in range(x.shape[0]):
        x[c] = kinds[c % len(kinds)](x[c])
    return x.movedim(0, axis)


@pytest.mark.parametrize("ndim,axis,dtype,symmetric,reduce_range", list(_axis_cases()))
def test_per_channel_observer_matches_torch_on_every_axis(ndim, axis, dtype, symmetric, reduce_range):
    """per_channel_minmax over two batches, then choose_qparams and quantize_per_channel, on every axis.

    Equal to PerChannelMinMaxObserver(ch_axis=axis) and torch.quantize_per_channel bit for bit: the
    per-channel range, scale and zero point, the codes and their dequantized values.
    """
    shape = SIZES[:ndim]
    batches = [channels_of_every_kind(shape, axis, seed) for seed in (1, 2)]
    with legacy_quantization():
        ob = torch_observer("PerChannelMinMaxObserver", dtype, symmetric, reduce_range, ch_axis=axis)
        for b in batches:
            ob(b)
        scale, zero_point = ob.calculate_qparams()
    state = None
    for b in batches:
        state = per_channel_minmax(b, axis=axis, state=state)
    assert state.min_val.shape == (shape[axis],)
    assert torch.equal(state.min_val, ob.min_val) and torch.equal(state.max_val, ob.max_val)
    p = choose_qparams(state.min_val, state.max_val, dtype, symmetric=symmetric, reduce_range=reduce_range)
    assert_same_qparams(p, scale, zero_point)

    x = batches[1]
    with legacy_quantization():
        expected = torch.quantize_per_channel(x, p.scale.double(), p.zero_point, axis % ndim, TORCH_DTYPE[dtype])
    got = quantize_per_channel(x, p.scale, p.zero_point, axis, dtype)
    assert torch.equal(got, expected.int_repr())
    assert torch.equal(dequantize_per_channel(got, p.scale, p.zero_point, axis), expected.dequantize())


@pytest.mark.parametrize("ndim,axis", [pytest.param(n, a, id=f"{n}d-axis{a}") for n in (2, 3, 4) for a in range(-n, n)])
def test_per_channel_observer_with_one_value_per_channel(ndim, axis):
    """Channels of one element each (every other dimension of size 1), for every config.

    Each channel's range is a single value: the widening to 0 and the epsilon floor decide
    every scale and zero point.
    """
    shape = [1] * ndim
    shape[axis] = 5
    x = torch.tensor([-1.5, 0.0, 0.75, -2e-9, 3.0]).reshape(shape)
    r = per_channel_minmax(x, axis=axis)
    assert torch.equal(r.min_val, x.flatten()) and torch.equal(r.max_val, x.flatten())
    for name, dtype, symmetric, reduce_range in CONFIGS:
        with legacy_quantization():
            ob = torch_observer("PerChannelMinMaxObserver", dtype, symmetric, reduce_range, ch_axis=axis)
            ob(x)
            scale, zero_point = ob.calculate_qparams()
        p = choose_qparams(r.min_val, r.max_val, dtype, symmetric=symmetric, reduce_range=reduce_range)
        assert_same_qparams(p, scale, zero_point)


def test_per_channel_observer_refuses_a_1d_input():
    """A 1-D tensor has no channel axis besides the values themselves: refused, never observed wrongly.

    torch's PerChannelMinMaxObserver refuses it as well (IndexError); a typed ConfigError (a
    ValueError) would be better and passes this test too.
    """
    with pytest.raises((IndexError, ValueError)):
        per_channel_minmax(torch.tensor([1.0, -2.0, 3.0]), axis=0)


@pytest.mark.parametrize("dtype,symmetric", [(torch.int8, True), (torch.uint8, False), (torch.int32, True)])
@pytest.mark.parametrize("axis", [0, -1])
def test_quantize_per_channel_of_a_1d_tensor_matches_torch(dtype, symmetric, axis):
    """quantize_per_channel on 1-D input (one scale per element, as for a bias) equals torch's."""
    x = torch.tensor([-3.0, -0.5, 0.0, 0.25, 4.0, 1e-9])
    p = choose_qparams(torch.clamp(x, max=0), torch.clamp(x, min=0), dtype, symmetric=symmetric)
    with legacy_quantization():
        expected = torch.quantize_per_channel(x, p.scale.double(), p.zero_point, 0, TORCH_DTYPE[dtype]).int_repr()
    assert torch.equal(quantize_per_channel(x, p.scale, p.zero_point, axis, dtype), expected)


def test_symmetric_uint8_reduce_range_keeps_its_zero_point_inside_the_range():
    """The one config left out of CONFIGS: torch's scale, and the middle of 0..127 as zero point.

    torch keeps 128 (outside the range it quantizes to) with reduce_range=True, and picks 63 with
    quant_min=0, quant_max=127; the reference documents 64.
    """
    x = torch.tensor([-1.0, 0.5, 3.0])
    with legacy_quantization():
        ob = torch_observer("MinMaxObserver", torch.uint8, True, True)
        ob(x)
        scale, _ = ob.calculate_qparams()
    p = choose_qparams(x.min(), x.max(), torch.uint8, symmetric=True, reduce_range=True)
    assert torch.equal(p.scale.reshape(-1), scale)
    assert p.zero_point.item() == 64 and (p.qmin, p.qmax) == (0, 127)


# -- properties: the data is always of the kind named, not only when Hypothesis draws it --

negative = st.floats(-1000, -(2.0**-20), allow_nan=False, width=32)
positive = st.floats(2.0**-20, 1000, allow_nan=False, width=32)


@settings(max_examples=40, deadline=None)
@given(values=st.one_of(st.lists(negative, min_size=1, max_size=16), st.lists(positive, min_size=1, max_size=16)),
       config=st.sampled_from([c for c in CONFIGS if c[0] != "int32-affine"]))
def test_qparams_of_one_signed_data_match_torch(values, config):
    """For data that is all negative or all positive, choose_qparams equals MinMaxObserver's."""
    _, dtype, symmetric, reduce_range = config
    x = torch.tensor(values)
    with legacy_quantization():
        ob = torch_observer("MinMaxObserver", dtype, symmetric, reduce_range)
        ob(x)
        scale, zero_point = ob.calculate_qparams()
    p = choose_qparams(x.min(), x.max(), dtype, symmetric=symmetric, reduce_range=reduce_range)
    assert_same_qparams(p, scale, zero_point)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_per_channel_minmax_is_the_range_of_each_slice(data):
    """On any shape of 2 to 4 dimensions and any axis: amin/amax over every other dimension."""
    shape = data.draw(st.lists(st.integers(1, 4), min_size=2, max_size=4), label="shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    x = torch.randn(shape, generator=torch.Generator().manual_seed(seed))
    others = tuple(d for d in range(len(shape)) if d != axis % len(shape))
    r = per_channel_minmax(x, axis=axis)
    assert torch.equal(r.min_val, x.amin(dim=others)) and torch.equal(r.max_val, x.amax(dim=others))
