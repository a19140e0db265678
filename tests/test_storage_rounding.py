"""Bit-exact checks of reference_impl.storage.rounding against PyTorch's casts."""

from __future__ import annotations

import math
import platform
import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.errors import ConfigError, DtypeError, NotATensorError
from reference_impl.storage import (
    bfloat16_to_float32,
    exhaustive_check,
    float16_to_float32,
    float32_to_bfloat16,
    float32_to_bfloat16_bits,
    float32_to_float16,
    float32_to_float16_bits,
)

NARROW = {
    "float16": (float32_to_float16_bits, float32_to_float16, torch.float16),
    "bfloat16": (float32_to_bfloat16_bits, float32_to_bfloat16, torch.bfloat16),
}
HAS_CUDA = torch.cuda.is_available()


def f32(pattern: int) -> float:
    """The float32 value with this (unsigned) bit pattern."""
    signed = pattern - 2**32 if pattern >= 2**31 else pattern
    return torch.tensor([signed], dtype=torch.int32).view(torch.float32).item()


def from_patterns(patterns: list[int]) -> torch.Tensor:
    """A float32 tensor from unsigned 32-bit patterns."""
    signed = [p - 2**32 if p >= 2**31 else p for p in patterns]
    return torch.tensor(signed, dtype=torch.int64).to(torch.int32).view(torch.float32)


def u16(bits: torch.Tensor) -> list[int]:
    """int16 patterns as unsigned ints (for readable assertion messages)."""
    return (bits.to(torch.int32) & 0xFFFF).tolist()


def assert_same_bits(x: torch.Tensor, ours: torch.Tensor, theirs: torch.Tensor, dtype) -> None:
    """Bits equal for non-NaN inputs; NaN inputs give NaN on both sides."""
    nan_in = torch.isnan(x)
    assert torch.equal(torch.isnan(ours.view(dtype)), nan_in)
    assert torch.equal(torch.isnan(theirs.view(dtype)), nan_in)
    differ = (ours != theirs) & ~nan_in
    if differ.any():
        bad = x[differ][:5]
        pats = [hex(p & 0xFFFFFFFF) for p in bad.view(torch.int32).tolist()]
        raise AssertionError(
            f"{int(differ.sum())} mismatches, first inputs {pats}: ours "
            f"{[hex(v) for v in u16(ours[differ][:5])]} torch {[hex(v) for v in u16(theirs[differ][:5])]}"
        )


# --- hand-picked edge cases --------------------------------------------------

F16_LARGEST_SUBNORMAL = 1023 * 2.0**-24
EDGE_VALUES = [
    0.0,
    1.0,
    1.23,
    65504.0,
    f32(0x477FEFFF),  # 65519.996: the largest float32 below 65520, rounds to 65504
    65520.0,  # halfway between 65504 and 65536: ties to even -> inf
    65536.0,
    1e10,
    2.0**-14,  # smallest float16 normal
    2.0**-14 - 2.0**-30,  # just below: rounds up to the smallest normal
    2.0**-24,  # smallest float16 subnormal
    2.0**-25,  # half of it: tie -> even 0
    f32(0x33000001),  # just above 2**-25 -> 2**-24
    3 * 2.0**-26,  # 0.75 * 2**-24 -> 2**-24
    1.5 * 2.0**-24,  # tie between 1 and 2 subnormal steps -> 2 (even)
    2.5 * 2.0**-24,  # tie between 2 and 3 -> 2 (even)
    F16_LARGEST_SUBNORMAL,
    1023.5 * 2.0**-24,  # tie between largest subnormal and smallest normal -> normal (even)
    1 + 2.0**-11,  # float16 tie: 1.0 (even)
    1 + 3 * 2.0**-11,  # float16 tie: 1 + 2**-9 (even)
    1 + 2.0**-11 + 2.0**-23,  # just above the tie: rounds up
    1 + 2.0**-11 - 2.0**-23,  # just below the tie: rounds down
    1 + 2.0**-8,  # bfloat16 tie: 1.0
    1 + 3 * 2.0**-8,  # bfloat16 tie: 1 + 2**-6
    f32(0x7F7F7FFF),  # just below bfloat16's overflow threshold
    f32(0x7F7F8000),  # bfloat16 tie at the top: -> inf
    f32(0x7F7FFFFF),  # float32 max
    f32(0x00000001),  # float32 smallest subnormal
    f32(0x007FFFFF),  # float32 largest subnormal: bfloat16 rounds up to the smallest normal
    f32(0x00008000),  # bfloat16 subnormal tie -> 0
    f32(0x00018000),  # bfloat16 subnormal tie -> 0x0002
    math.inf,
    math.nan,
]
EDGE = torch.tensor(EDGE_VALUES + [-v for v in EDGE_VALUES], dtype=torch.float32)


@pytest.mark.parametrize("target", ["float16", "bfloat16"])
def test_edge_cases_match_torch_bit_for_bit(target):
    to_bits, _, dtype = NARROW[target]
    assert_same_bits(EDGE, to_bits(EDGE), EDGE.to(dtype).view(torch.int16), dtype)


def test_float16_edge_values_explained():
    x = torch.tensor(
        [65519.99609375, 65520.0, 2.0**-25, 3 * 2.0**-26, 1023.5 * 2.0**-24, -0.0, -1e-30]
    )
    assert u16(float32_to_float16_bits(x)) == [0x7BFF, 0x7C00, 0x0000, 0x0001, 0x0400, 0x8000, 0x8000]
    assert float32_to_float16(torch.tensor([1.23])).item() == 1.23046875


def test_bfloat16_edge_values_explained():
    x = from_patterns([0x7F7F7FFF, 0x7F7F8000, 0x007FFFFF, 0x00008000, 0x80000000, 0xFF800000])
    assert u16(float32_to_bfloat16_bits(x)) == [0x7F7F, 0x7F80, 0x0080, 0x0000, 0x8000, 0xFF80]


@pytest.mark.parametrize("target", ["float16", "bfloat16"])
def test_every_halfway_point_and_its_neighbours(target):
    """For each pair of adjacent finite target values: the midpoint and one float32 step either side."""
    to_bits, _, dtype = NARROW[target]
    patterns = torch.arange(0, 0x7C00 if target == "float16" else 0x7F80, dtype=torch.int32)
    low = patterns.to(torch.int16).view(dtype).float()
    high = (patterns + 1).to(torch.int16).view(dtype).float()
    mid = (low + high) / 2  # exact: needs one bit more than the target has
    mid = mid[torch.isfinite(mid)]
    x = torch.cat([mid, torch.nextafter(mid, torch.tensor(math.inf)), torch.nextafter(mid, torch.tensor(0.0))])
    x = torch.cat([x, -x])
    assert_same_bits(x, to_bits(x), x.to(dtype).view(torch.int16), dtype)


@pytest.mark.parametrize("target", ["float16", "bfloat16"])
def test_two_million_random_bit_patterns(target):
    to_bits, _, dtype = NARROW[target]
    gen = torch.Generator().manual_seed(20240613 + len(target))
    x = torch.randint(-(2**31), 2**31, (2**21,), dtype=torch.int64, generator=gen)
    x = x.to(torch.int32).view(torch.float32)
    assert_same_bits(x, to_bits(x), x.to(dtype).view(torch.int16), dtype)


def test_random_float16_range_values():
    """Random values concentrated where float16 lives (normal, subnormal, overflow)."""
    gen = torch.Generator().manual_seed(7)
    exponents = torch.randint(-30, 18, (2**20,), generator=gen).float()
    x = torch.rand(2**20, generator=gen) * torch.exp2(exponents)
    x = torch.where(torch.rand(2**20, generator=gen) < 0.5, -x, x)
    assert_same_bits(x, float32_to_float16_bits(x), x.half().view(torch.int16), torch.float16)


# --- NaN ------------------------------------------------------------------------

NAN_PATTERNS = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF800001, 0x7FA00000, 0x7FFFFFFF, 0x7F802000, 0xFF812345]


def test_float16_nan_rule():
    """Quiet NaN, sign kept, top mantissa bits of the payload kept."""
    ours = u16(float32_to_float16_bits(from_patterns(NAN_PATTERNS)))
    assert ours == [0x7E00, 0xFE00, 0x7E00, 0xFE00, 0x7F00, 0x7FFF, 0x7E01, 0xFE09]


def test_bfloat16_nan_rule():
    ours = u16(float32_to_bfloat16_bits(from_patterns(NAN_PATTERNS)))
    assert ours == [0x7FC0, 0xFFC0, 0x7FC0, 0xFFC0, 0x7FE0, 0x7FFF, 0x7FC0, 0xFFC1]
    # Plain rounding would have carried 0x7FFFFFFF into 0x8000 (-0.0): NaN needs its own rule.
    assert torch.isnan(float32_to_bfloat16(from_patterns([0x7FFFFFFF, 0x7F808000]))).all()


@pytest.mark.skipif(
    platform.machine().lower() not in {"x86_64", "amd64"},
    reason="PyTorch's float16 NaN bits were checked on x86 CPUs only",
)
def test_float16_nan_bits_match_torch_contiguous_cpu_kernel():
    x = from_patterns(NAN_PATTERNS * 128)  # contiguous, a multiple of every vector width
    assert torch.equal(float32_to_float16_bits(x), x.half().view(torch.int16))


# --- widening: all 65536 patterns ---------------------------------------------------


ALL_16_BIT = torch.arange(-(2**15), 2**15, dtype=torch.int32).to(torch.int16)


def test_float16_to_float32_all_patterns():
    h = ALL_16_BIT.view(torch.float16)
    ours = float16_to_float32(h)
    theirs = h.float()
    nan = torch.isnan(h)
    assert torch.equal(torch.isnan(ours), nan)
    assert torch.equal(ours.view(torch.int32)[~nan], theirs.view(torch.int32)[~nan])
    assert int(nan.sum()) == 2 * 1023


def test_float16_to_float32_nan_rule_and_subnormals():
    h = torch.tensor([0x7C01, 0xFC01 - 2**16, 0x7E00, 0x7D23, 0x0001, 0x03FF, 0x8001 - 2**16], dtype=torch.int16)
    bits = float16_to_float32(h.view(torch.float16)).view(torch.int32)
    assert [b & 0xFFFFFFFF for b in bits.tolist()] == [
        0x7FC02000,  # signalling NaN comes out quiet, payload kept
        0xFFC02000,
        0x7FC00000,
        0x7FE46000,
        0x33800000,  # 2**-24 is a normal float32
        0x387FC000,  # largest float16 subnormal
        0xB3800000,
    ]


def test_bfloat16_to_float32_all_patterns_bit_exact_including_nan():
    b = ALL_16_BIT.view(torch.bfloat16)
    assert torch.equal(bfloat16_to_float32(b).view(torch.int32), b.float().view(torch.int32))


@pytest.mark.parametrize("target", ["float16", "bfloat16"])
def test_round_trip_through_widening_matches_torch(target):
    to_bits, to_value, dtype = NARROW[target]
    widen = float16_to_float32 if target == "float16" else bfloat16_to_float32
    x = torch.randn(10_000) * 1000
    assert torch.equal(widen(to_value(x)), x.to(dtype).float())


# --- shapes and layouts ------------------------------------------------------------


@pytest.mark.parametrize("target", ["float16", "bfloat16"])
@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.tensor(1.23),
        lambda: torch.empty(0),
        lambda: torch.randn(3, 4, 5) * 1e4,
        lambda: (torch.randn(6, 7) * 1e5).t(),  # non-contiguous
        lambda: torch.randn(20)[::3],
    ],
    ids=["scalar", "empty", "3d", "transposed", "strided"],
)
def test_shapes_and_layouts(target, make):
    to_bits, to_value, dtype = NARROW[target]
    x = make()
    bits = to_bits(x)
    assert bits.dtype == torch.int16 and bits.shape == x.shape
    out = to_value(x)
    assert out.dtype == dtype and out.shape == x.shape
    assert torch.equal(out.view(torch.int16), x.to(dtype).view(torch.int16))


@pytest.mark.cuda
@pytest.mark.skipif(not HAS_CUDA, reason="needs a CUDA GPU")
@pytest.mark.parametrize("target", ["float16", "bfloat16"])
def test_cuda_matches_cuda_casts(target):
    to_bits, _, dtype = NARROW[target]
    gen = torch.Generator(device="cuda").manual_seed(3)
    x = torch.randint(-(2**31), 2**31, (2**22,), dtype=torch.int64, device="cuda", generator=gen)
    x = x.to(torch.int32).view(torch.float32)
    ours = to_bits(x)
    assert ours.device == x.device
    assert_same_bits(x, ours, x.to(dtype).view(torch.int16), dtype)
    widen = float16_to_float32 if target == "float16" else bfloat16_to_float32
    h = ALL_16_BIT.cuda().view(dtype)
    wide, ref = widen(h), h.float()
    nan = torch.isnan(h)
    assert torch.equal(torch.isnan(wide), nan)
    assert torch.equal(wide.view(torch.int32)[~nan], ref.view(torch.int32)[~nan])


# --- properties -----------------------------------------------------------------------

F16_NORMAL = st.floats(min_value=2.0**-14, max_value=65504.0, width=32)
BF16_NORMAL = st.floats(min_value=2.0**-126, max_value=float(torch.finfo(torch.bfloat16).max), width=32)


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(F16_NORMAL, min_size=1, max_size=64), st.booleans())
def test_float16_relative_error_at_most_half_an_ulp(values, negate):
    x = torch.tensor(values, dtype=torch.float32) * (-1 if negate else 1)
    back = float16_to_float32(float32_to_float16(x)).double()
    rel = ((back - x.double()).abs() / x.double().abs()).max().item()
    assert rel <= 2.0**-11


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(BF16_NORMAL, min_size=1, max_size=64), st.booleans())
def test_bfloat16_relative_error_at_most_half_an_ulp(values, negate):
    x = torch.tensor(values, dtype=torch.float32) * (-1 if negate else 1)
    back = bfloat16_to_float32(float32_to_bfloat16(x)).double()
    rel = ((back - x.double()).abs() / x.double().abs()).max().item()
    assert rel <= 2.0**-8


@settings(max_examples=200, deadline=None, database=None)
@given(st.lists(st.integers(min_value=0, max_value=2**32 - 1), min_size=1, max_size=64))
def test_any_bit_patterns_match_torch(patterns):
    x = from_patterns(patterns)
    for to_bits, _, dtype in NARROW.values():
        assert_same_bits(x, to_bits(x), x.to(dtype).view(torch.int16), dtype)


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn",
    [float32_to_float16_bits, float32_to_float16, float32_to_bfloat16_bits, float32_to_bfloat16, float16_to_float32, bfloat16_to_float32],
)
def test_non_tensor_raises_not_a_tensor_error(fn):
    with pytest.raises(NotATensorError, match="torch.tensor") as info:
        fn([1.0, 2.0])
    assert isinstance(info.value, TypeError)


def test_float64_input_says_call_float():
    with pytest.raises(DtypeError, match=r"call \.float\(\) first"):
        float32_to_float16(torch.zeros(3, dtype=torch.float64))


def test_int32_input_mentions_view():
    with pytest.raises(DtypeError, match=r"\.view\(torch\.float32\)"):
        float32_to_bfloat16_bits(torch.zeros(3, dtype=torch.int32))


def test_quantized_input_says_dequantize():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # quantized tensors are deprecated in torch 2.13
        q = torch.quantize_per_tensor(torch.rand(4), 0.1, 0, torch.quint8)
    with pytest.raises(DtypeError, match=r"dequantize\(\) first"):
        float32_to_float16(q)


def test_widening_wrong_dtype_messages():
    with pytest.raises(DtypeError, match=r"\.view\(torch\.float16\)"):
        float16_to_float32(torch.zeros(2, dtype=torch.int16))
    with pytest.raises(DtypeError, match=r"torch\.bfloat16"):
        bfloat16_to_float32(torch.zeros(2, dtype=torch.float16))


# --- exhaustive check -----------------------------------------------------------------------


@pytest.mark.parametrize("target", ["float16", "bfloat16"])
def test_exhaustive_check_on_selected_chunks(target):
    # 2**16-pattern chunks: ones around 1.0, float16's overflow edge, its subnormals,
    # float32 subnormals, +-inf and NaNs.
    chunks = [0x3F80, 0x477F, 0x3380, 0x0000, 0x7F80, 0xFF80, 0x7FC0, 0xFFFF]
    summary = exhaustive_check(target, chunk_bits=16, chunks=chunks)
    assert summary.ok, summary
    assert summary.checked == len(chunks) * 2**16
    assert summary.target == target and summary.device == "cpu"
    assert target in str(summary)


def test_exhaustive_check_rejects_bad_arguments():
    with pytest.raises(ConfigError, match="float16"):
        exhaustive_check("float8")
    with pytest.raises(ConfigError, match="chunk_bits"):
        exhaustive_check(chunk_bits=4)
    with pytest.raises(ConfigError, match="out of range"):
        exhaustive_check(chunk_bits=30, chunks=[4])


@pytest.mark.slow
@pytest.mark.parametrize("target", ["float16", "bfloat16"])
def test_exhaustive_all_float32_patterns(target):
    device = "cuda" if HAS_CUDA else "cpu"
    summary = exhaustive_check(target, device=device, chunk_bits=24 if HAS_CUDA else 20)
    assert summary.checked == 2**32
    assert summary.ok, summary
