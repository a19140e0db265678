"""Bit-exact checks of reference_impl.storage.float8 against PyTorch's float8 casts.

PyTorch 2.13 on CPU saturates float32 -> float8_e4m3fn (overflow and inf -> +-448) and
does not saturate float32 -> float8_e5m2 (overflow -> +-inf); TORCH_SATURATES records
that, and test_torch_overflow_behaviour pins it so that a change in torch fails here.
The saturating e4m3fn cast arrived in 2.13 (pytorch PR 178817, merged after the 2.12 branch
cut); torch 2.11 (the GPU machine's) gives NaN, on the CPU and on CUDA, so the expectation
follows the installed version: each version's behaviour is asserted, none is skipped
(checked on 2.13.0+cpu and 2.11.0+cu130).
"""

from __future__ import annotations

import pytest
import torch

from reference_impl.errors import ConfigError, DtypeError, NotATensorError
from reference_impl.storage import (
    float8_format,
    float8_to_float32,
    float32_to_float8,
    float32_to_float8_bits,
)

FORMATS = [torch.float8_e4m3fn, torch.float8_e5m2]
# e4m3fn saturates from torch 2.13 on (pytorch PR 178817); before, an out-of-range value became NaN.
# torch.__version__ is a TorchVersion: it compares as a version ("2.13.0+cpu" >= "2.13").
E4M3FN_SATURATES = torch.__version__ >= "2.13"
TORCH_SATURATES = {torch.float8_e4m3fn: E4M3FN_SATURATES, torch.float8_e5m2: False}
IDS = ["e4m3fn", "e5m2"]


def torch_bits(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    return x.to(dtype).view(torch.uint8)


def assert_same_bits(x: torch.Tensor, dtype: torch.dtype) -> None:
    """Our bits equal torch's for every element, NaN inputs included."""
    ours = float32_to_float8_bits(x, dtype, saturate=TORCH_SATURATES[dtype])
    theirs = torch_bits(x, dtype)
    differ = ours != theirs
    if differ.any():
        bad = x[differ][:5]
        raise AssertionError(
            f"{int(differ.sum())} of {x.numel()} differ; inputs {bad.tolist()} "
            f"({[hex(p & 0xFFFFFFFF) for p in bad.view(torch.int32).tolist()]}): "
            f"ours {[hex(v) for v in ours[differ][:5].tolist()]}, "
            f"torch {[hex(v) for v in theirs[differ][:5].tolist()]}"
        )


def all_16_bit_values(dtype: torch.dtype) -> torch.Tensor:
    """All 65,536 float16 or bfloat16 values (NaNs and infinities included) as float32."""
    patterns = torch.arange(-(2**15), 2**15, dtype=torch.int32).to(torch.int16)
    return patterns.view(dtype).float()


def finite_values(dtype: torch.dtype) -> torch.Tensor:
    """The non-negative finite values of a float8 format, sorted, as float32."""
    values = torch.arange(128, dtype=torch.uint8).view(dtype).float()
    return torch.sort(values[torch.isfinite(values)]).values


def neighbourhood(points: torch.Tensor, width: int) -> torch.Tensor:
    """Every float32 within ``width`` ulps of each point (both signs)."""
    bits = points.view(torch.int32).to(torch.int64)
    offsets = torch.arange(-width, width + 1, dtype=torch.int64)
    near = (bits[:, None] + offsets[None, :]).flatten()
    near = near[(near >= 0) & (near < 0x7F80_0000)].to(torch.int32).view(torch.float32)
    return torch.cat([near, -near])


@pytest.mark.parametrize("dtype", FORMATS, ids=IDS)
def test_all_256_codes_decode_like_torch(dtype):
    codes = torch.arange(256, dtype=torch.uint8).view(dtype)
    ours = float8_to_float32(codes)
    # Bit for bit, NaN bits included.
    assert torch.equal(ours.view(torch.int32), codes.float().view(torch.int32))


@pytest.mark.parametrize("dtype", FORMATS, ids=IDS)
def test_decode_then_encode_is_identity(dtype):
    codes = torch.arange(256, dtype=torch.uint8)
    values = float8_to_float32(codes.view(dtype))
    # Every NaN code encodes back to the one NaN PyTorch produces, 0x7F (with the sign).
    expected = torch.where(torch.isnan(values), (codes & 0x80) | 0x7F, codes)
    for saturate in (True, False):
        again = float32_to_float8_bits(values, dtype, saturate=saturate)
        if saturate:  # e5m2's infinities become its largest finite value
            expected_here = torch.where(torch.isinf(values), (codes & 0x80) | float8_format(dtype).max_code, expected)
        else:
            expected_here = expected
        assert torch.equal(again, expected_here)


@pytest.mark.parametrize("source", [torch.float16, torch.bfloat16], ids=["float16", "bfloat16"])
@pytest.mark.parametrize("dtype", FORMATS, ids=IDS)
def test_every_16_bit_value_encodes_like_torch(dtype, source):
    assert_same_bits(all_16_bit_values(source), dtype)


@pytest.mark.parametrize("dtype", FORMATS, ids=IDS)
def test_rounding_boundaries_and_ties_encode_like_torch(dtype):
    values = finite_values(dtype)
    midpoints = (values[:-1] + values[1:]) / 2  # exact in float32: a few significant bits
    step_above_max = values[-1] - values[-2]
    overflow_threshold = values[-1:] + step_above_max / 2  # 464 or 61440
    points = torch.cat([values, midpoints, overflow_threshold])
    x = neighbourhood(points, width=256)
    assert x.numel() > 100_000
    assert_same_bits(x, dtype)


@pytest.mark.parametrize("dtype", FORMATS, ids=IDS)
def test_random_float32_patterns_encode_like_torch(dtype):
    generator = torch.Generator().manual_seed(0)
    x = torch.randint(-(2**31), 2**31, (1 << 21,), dtype=torch.int64, generator=generator)
    assert_same_bits(x.to(torch.int32).view(torch.float32), dtype)


@pytest.mark.parametrize("dtype", FORMATS, ids=IDS)
def test_every_exponent_and_special_value_encodes_like_torch(dtype):
    # 256 exponent fields x a few mantissas x both signs, plus the extremes.
    exponents = torch.arange(256, dtype=torch.int32) << 23
    mantissas = torch.tensor([0, 1, 0x7FFFF, 0x80000, 0x80001, 0x100000, 0x7FFFFF], dtype=torch.int32)
    patterns = (exponents[:, None] | mantissas[None, :]).flatten()
    x = patterns.view(torch.float32)
    extremes = torch.tensor([0.0, 3.4e38, 1e30, 1e6, 1e-30, 1e-45, float("inf"), float("nan")])
    assert_same_bits(torch.cat([x, -x, extremes, -extremes]), dtype)


def test_torch_overflow_behaviour():
    """What PyTorch's CPU cast does out of range (changes here mean torch changed).

    464 is the tie between 448 and the next step (480, which e4m3fn does not have): it rounds to
    the even 448 in every version. Above it, torch 2.13 saturates to +-448 and torch 2.11 gives NaN
    (0x7F, 0xFF with the sign; the H100 run of 2026-11-26 printed the same on CUDA).
    """
    x = torch.tensor([464.0, 465.0, 1e6, float("inf"), -float("inf"), 61440.0])
    e4m3fn = x.to(torch.float8_e4m3fn)
    if E4M3FN_SATURATES:  # torch >= 2.13
        assert e4m3fn.float().tolist() == [448.0, 448.0, 448.0, 448.0, -448.0, 448.0]
        assert [hex(b) for b in e4m3fn.view(torch.uint8).tolist()] == ["0x7e", "0x7e", "0x7e", "0x7e", "0xfe", "0x7e"]
    else:  # torch 2.11: out of range is NaN, the sign kept in the bits
        assert [hex(b) for b in e4m3fn.view(torch.uint8).tolist()] == ["0x7e", "0x7f", "0x7f", "0x7f", "0xff", "0x7f"]
    e5m2 = x.to(torch.float8_e5m2).float().tolist()
    assert e5m2[:5] == [448.0, 448.0, float("inf"), float("inf"), -float("inf")]
    assert e5m2[5] == float("inf")  # 61440 is the tie between 57344 and 65536: even = inf
    # The same on a strided (non-contiguous) tensor: no separate scalar behaviour.
    strided = torch.stack([x, x], dim=1)[:, 0]
    assert not strided.is_contiguous()
    assert torch.equal(strided.to(torch.float8_e4m3fn).view(torch.uint8), x.to(torch.float8_e4m3fn).view(torch.uint8))


@pytest.mark.parametrize(
    ("dtype", "saturate", "expected"),
    [
        (torch.float8_e4m3fn, True, [448.0, 448.0, 448.0, -448.0]),
        (torch.float8_e4m3fn, False, [448.0, "nan", "nan", "nan"]),
        (torch.float8_e5m2, True, [57344.0, 57344.0, 57344.0, -57344.0]),
        # The tie above 57344 (code 0x7B, odd) goes to the even 65536: inf.
        (torch.float8_e5m2, False, ["inf", "inf", "inf", "-inf"]),
    ],
    ids=["e4m3fn-sat", "e4m3fn-nonsat", "e5m2-sat", "e5m2-nonsat"],
)
def test_overflow_modes(dtype, saturate, expected):
    fmt = float8_format(dtype)
    top = float8_to_float32(torch.tensor([fmt.max_code], dtype=torch.uint8).view(dtype)).item()
    step = top - float8_to_float32(torch.tensor([fmt.max_code - 1], dtype=torch.uint8).view(dtype)).item()
    # The overflow threshold (a tie), just above it, inf, -inf.
    x = torch.tensor([top + step / 2, top + step / 2 + step / 64, float("inf"), -float("inf")])
    got = float32_to_float8(x, dtype, saturate=saturate).float().tolist()
    assert [str(v) for v in got] == [str(float(e)) for e in expected]


def test_nan_keeps_its_sign():
    x = torch.tensor([float("nan"), -float("nan")])
    for dtype in FORMATS:
        for saturate in (True, False):
            assert float32_to_float8_bits(x, dtype, saturate=saturate).tolist() == [0x7F, 0xFF]


def test_negative_zero_and_underflow_keep_the_sign():
    x = torch.tensor([-0.0, -1e-30, -(2.0**-10)])
    assert float32_to_float8_bits(x, torch.float8_e4m3fn, saturate=True).tolist() == [0x80] * 3


def test_works_on_any_shape():
    x = torch.randn(3, 4, 5, generator=torch.Generator().manual_seed(1))
    out = float32_to_float8(x, torch.float8_e4m3fn, saturate=True)
    assert out.shape == x.shape and out.dtype == torch.float8_e4m3fn
    assert torch.equal(float8_to_float32(out), x.to(torch.float8_e4m3fn).float())


def test_format_table_matches_finfo():
    for dtype in FORMATS:
        fmt = float8_format(dtype)
        finfo = torch.finfo(dtype)
        top = torch.tensor([fmt.max_code], dtype=torch.uint8).view(dtype).float().item()
        assert top == finfo.max
        assert 2.0 ** (1 - fmt.bias) == finfo.smallest_normal
        assert 2.0**-fmt.mantissa_bits == finfo.eps


def test_errors_are_typed_and_say_what_to_do():
    with pytest.raises(NotATensorError):
        float32_to_float8_bits([1.0], torch.float8_e4m3fn, saturate=True)
    with pytest.raises(DtypeError, match="float32"):
        float32_to_float8_bits(torch.ones(2, dtype=torch.float16), torch.float8_e4m3fn, saturate=True)
    with pytest.raises(DtypeError, match="fnuz"):
        float32_to_float8_bits(torch.ones(2), torch.float8_e4m3fnuz, saturate=True)
    with pytest.raises(DtypeError, match="torch.dtype"):
        float8_format("e4m3")
    with pytest.raises(ConfigError, match="saturate"):
        float32_to_float8_bits(torch.ones(2), torch.float8_e5m2, saturate=None)
    with pytest.raises(TypeError):  # keyword only, no default
        float32_to_float8_bits(torch.ones(2), torch.float8_e5m2)  # type: ignore[call-arg]
    with pytest.raises(DtypeError, match=r"\.view\(torch\.float8_e4m3fn\)"):
        float8_to_float32(torch.zeros(2, dtype=torch.uint8))


@pytest.mark.cuda
@pytest.mark.parametrize("dtype", FORMATS, ids=IDS)
def test_cuda_cast_matches_the_cpu_cast_and_the_reference(dtype):
    """The float8 page says CPU and CUDA share the conversion code in torch >= 2.13: check it."""
    values = finite_values(dtype)
    midpoints = (values[:-1] + values[1:]) / 2
    x = torch.cat([neighbourhood(torch.cat([values, midpoints]), width=64), all_16_bit_values(torch.bfloat16)])
    on_cuda = x.cuda().to(dtype).view(torch.uint8).cpu()
    assert torch.equal(on_cuda, torch_bits(x, dtype))
    assert torch.equal(float32_to_float8_bits(x.cuda(), dtype, saturate=TORCH_SATURATES[dtype]).cpu(), on_cuda)
