"""Checks of reference_impl.storage.tf32 against PyTorch on CPU.

PyTorch has no TF32 dtype and no TF32 kernel on CPU, but rounding to 10 mantissa bits
with ties to even is exactly what ``x.half()`` does for a float16 normal number. Any
float32 ``x`` with exponent field ``e`` (1..254) scaled by ``2**(127 - e)`` lands in
[1, 2), where float16 keeps 10 mantissa bits; the scaling is exact, and so is scaling
the rounded value back (a carry out of the largest binade gives inf, as it should).
float32 subnormals (e = 0) are multiples of 2**-149 that TF32 rounds to multiples of
2**-136; scaled by 2**112 they become multiples of 2**-37 below 2**-14, float16's
subnormal range, where x.half() rounds to multiples of 2**-24: the same grid.
"""

from __future__ import annotations

import time

import pytest
import torch

from reference_impl.errors import ConfigError, DtypeError, NotATensorError
from reference_impl.storage import TF32_ROUNDINGS, float32_to_tf32


def tf32_via_float16(x: torch.Tensor) -> torch.Tensor:
    """Round finite float32 values to TF32 (ties to even) with PyTorch's own x.half()."""
    exponent = (x.view(torch.int32) >> 23) & 0xFF
    k = torch.where(exponent == 0, 112, 127 - exponent)
    scaled = torch.ldexp(x, k)  # x * 2**k, exact
    return torch.ldexp(scaled.half().float(), -k)  # exact, or inf for a carry out of 2**128


def from_patterns(patterns: torch.Tensor) -> torch.Tensor:
    """float32 values from unsigned 32-bit patterns held in int64."""
    signed = torch.where(patterns >= 2**31, patterns - 2**32, patterns)
    return signed.to(torch.int32).view(torch.float32)


def assert_matches_float16_route(x: torch.Tensor) -> None:
    ours = float32_to_tf32(x, rounding="nearest_even")
    theirs = tf32_via_float16(x)
    differ = (ours.view(torch.int32) != theirs.view(torch.int32)) & torch.isfinite(x)
    if differ.any():
        bad = x[differ][:5]
        raise AssertionError(
            f"{int(differ.sum())} differ, inputs {[hex(p & 0xFFFFFFFF) for p in bad.view(torch.int32).tolist()]}: "
            f"ours {ours[differ][:5].tolist()} torch {theirs[differ][:5].tolist()}"
        )


def all_mantissas(exponent_field: int, negative: bool = False) -> torch.Tensor:
    sign = 2**31 if negative else 0
    start = sign + (exponent_field << 23)
    return from_patterns(torch.arange(start, start + (1 << 23), dtype=torch.int64))


@pytest.mark.parametrize(
    ("exponent_field", "negative"),
    [(0, False), (1, True), (112, False), (127, True), (254, False), (254, True)],
    ids=["subnormal", "smallest-normal", "below-f16-range", "minus-one", "largest", "largest-neg"],
)
def test_all_mantissas_of_one_exponent_round_like_float16(exponent_field, negative):
    """All 2**23 mantissas of a binade: every tie and every carry."""
    assert_matches_float16_route(all_mantissas(exponent_field, negative))


def test_random_patterns_of_every_exponent_round_like_float16():
    generator = torch.Generator().manual_seed(0)
    patterns = torch.randint(0, 2**32, (1 << 22,), dtype=torch.int64, generator=generator)
    assert_matches_float16_route(from_patterns(patterns))


def test_ties_and_carries_in_every_binade():
    """For every exponent field and sign: the tie, one ulp either side, and the carry."""
    exponents = torch.arange(0, 255, dtype=torch.int64) << 23
    low = torch.tensor([0x0FFF, 0x1000, 0x1001, 0x2FFF, 0x3000, 0x3001, 0x7FEFFF, 0x7FF000, 0x7FF001, 0x7FFFFF])
    patterns = (exponents[:, None] | low[None, :]).flatten()
    assert_matches_float16_route(torch.cat([from_patterns(patterns), from_patterns(patterns + 2**31)]))


def test_largest_binade_carries_to_inf():
    x = torch.tensor([3.4028235e38, -3.4028235e38])  # float32 max: mantissa all ones
    assert float32_to_tf32(x, rounding="nearest_even").tolist() == [float("inf"), -float("inf")]
    assert float32_to_tf32(x, rounding="nearest_away").tolist() == [float("inf"), -float("inf")]
    assert float32_to_tf32(x, rounding="toward_zero").tolist() == [3.4011621342146535e38, -3.4011621342146535e38]


@pytest.mark.parametrize("rounding", TF32_ROUNDINGS)
def test_special_values(rounding):
    x = torch.tensor([0.0, -0.0, float("inf"), -float("inf")])
    assert float32_to_tf32(x, rounding=rounding).view(torch.int32).tolist() == x.view(torch.int32).tolist()
    # A NaN whose payload sits only in the low 13 bits must not become inf.
    nan = from_patterns(torch.tensor([0x7F80_0001, 0xFF80_0001, 0x7FC0_0000], dtype=torch.int64))
    out = float32_to_tf32(nan, rounding=rounding)
    assert torch.isnan(out).all()
    assert torch.signbit(out).tolist() == [False, True, False]


@pytest.mark.parametrize("rounding", TF32_ROUNDINGS)
def test_results_are_tf32_values(rounding):
    generator = torch.Generator().manual_seed(2)
    x = from_patterns(torch.randint(0, 2**32, (1 << 20,), dtype=torch.int64, generator=generator))
    out = float32_to_tf32(x, rounding=rounding)
    finite = torch.isfinite(out)
    assert ((out[finite].view(torch.int32) & 0x1FFF) == 0).all()
    # Rounding a TF32 value again changes nothing.
    assert torch.equal(float32_to_tf32(out[finite], rounding=rounding), out[finite])


def test_modes_differ_only_where_they_should():
    generator = torch.Generator().manual_seed(3)
    patterns = torch.randint(0, 2**31 - 2**23, (1 << 20,), dtype=torch.int64, generator=generator)  # finite, >= 0
    # Make one in eight an exact tie.
    patterns = torch.where(patterns % 8 == 0, (patterns & ~0x1FFF) | 0x1000, patterns)
    x = from_patterns(patterns)
    even = float32_to_tf32(x, rounding="nearest_even").view(torch.int32)
    away = float32_to_tf32(x, rounding="nearest_away").view(torch.int32)
    zero = float32_to_tf32(x, rounding="toward_zero").view(torch.int32)
    low = x.view(torch.int32) & 0x1FFF
    tie = low == 0x1000
    assert tie.sum() > 100_000
    assert torch.equal(even[~tie], away[~tie])  # the nearest modes agree except on ties
    kept_is_odd = ((x.view(torch.int32) >> 13) & 1) == 1
    assert torch.equal(even[tie], torch.where(kept_is_odd[tie], away[tie], zero[tie]))
    assert torch.equal(away[tie], zero[tie] + 0x2000)  # away = one TF32 unit up
    assert torch.equal(zero, x.view(torch.int32) & ~0x1FFF)  # truncation
    # Every mode is within one TF32 unit of the input.
    assert ((away - zero) <= 0x2000).all() and ((even - zero) <= 0x2000).all()


def test_tf32_matmul_error_is_about_2_to_the_minus_11_per_input():
    """The error a TF32 matmul introduces comes from rounding its inputs."""
    generator = torch.Generator().manual_seed(4)
    a = torch.randn(64, 256, generator=generator)
    b = torch.randn(256, 64, generator=generator)
    exact = a.double() @ b.double()
    fp32 = a @ b
    tf32 = float32_to_tf32(a, rounding="nearest_even") @ float32_to_tf32(b, rounding="nearest_even")
    scale = exact.abs().mean()
    assert ((fp32 - exact).abs().max() / scale) < 1e-5
    assert 1e-4 < ((tf32 - exact).abs().max() / scale) < 1e-2


def test_errors_are_typed():
    with pytest.raises(NotATensorError):
        float32_to_tf32(1.0, rounding="nearest_even")
    with pytest.raises(DtypeError, match="float32"):
        float32_to_tf32(torch.ones(2, dtype=torch.float64), rounding="nearest_even")
    with pytest.raises(ConfigError, match="nearest_away"):
        float32_to_tf32(torch.ones(2), rounding="nearest")
    with pytest.raises(TypeError):  # keyword only, no default
        float32_to_tf32(torch.ones(2))  # type: ignore[call-arg]


@pytest.mark.slow
@pytest.mark.timeout(4 * 3600)
def test_all_2_to_the_32_patterns_round_like_float16():
    """The whole float32 space, 2**22 patterns at a time (about an hour on 2 busy cores)."""
    start_time = time.perf_counter()
    chunk = 1 << 22
    for start in range(0, 2**32, chunk):
        assert_matches_float16_route(from_patterns(torch.arange(start, start + chunk, dtype=torch.int64)))
    print(f"2**32 patterns in {time.perf_counter() - start_time:.0f} s")
