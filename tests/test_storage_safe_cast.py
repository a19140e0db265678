"""Tests of reference_impl.storage.casting (check_cast / safe_cast)."""

from __future__ import annotations

import math
import warnings

import pytest
import torch

from reference_impl.errors import CastError, ConfigError, DtypeError, NotATensorError
from reference_impl.storage import CastReport, CastWarning, Offender, check_cast, safe_cast

MIXED = torch.tensor([[1.0, 70000.0, 1e-8], [math.nan, 1e-6, -65520.0]])


def test_check_cast_counts_and_first_offenders():
    report = check_cast(MIXED, torch.float16)
    assert isinstance(report, CastReport)
    assert (report.numel, report.overflow, report.underflow, report.subnormal, report.nan) == (6, 2, 1, 1, 1)
    assert report.first_overflow == Offender(index=(0, 1), value=70000.0, result=math.inf)
    assert report.first_underflow.index == (0, 2) and report.first_underflow.result == 0.0
    assert report.first_subnormal.index == (1, 1)
    assert report.first_nan.index == (1, 0)
    assert report.lost_inf == 0 and report.first_lost_inf is None
    assert not report.ok()


def test_overflow_threshold_is_halfway_past_max():
    x = torch.tensor([65504.0, 65519.99609375, 65520.0, -65520.0])
    report = check_cast(x, torch.float16)
    assert report.overflow == 2
    assert report.first_overflow.value == 65520.0
    assert check_cast(x[:2], torch.float16).ok()


@pytest.mark.parametrize(
    ("dtype", "at_max", "tie", "past"),
    [
        # float16: max 65504 has an odd last significand bit, so the tie 65520 overflows
        (torch.float16, 65504.0, 65520.0, 65521.0),
        # bfloat16: the same (max 0x7F7F, odd)
        (torch.bfloat16, 3.3895313892515355e38, 3.3961775292304e38, 3.397e38),
        # float8_e5m2: max 57344 = 1.11b x 2^15 (odd): the tie 61440 overflows
        (torch.float8_e5m2, 57344.0, 61440.0, 61441.0),
        # float8_e4m3fn: max 448 = 1.110b x 2^8 (even): the tie 464 rounds to 448, no overflow
        (torch.float8_e4m3fn, 448.0, 464.0, 464.5),
    ],
)
def test_a_tie_at_the_top_overflows_only_when_max_is_odd(dtype, at_max, tie, past):
    """Round to nearest, ties to even: the halfway point past max rounds to max when max is even."""
    tie_overflows = dtype != torch.float8_e4m3fn
    assert check_cast(torch.tensor([at_max], dtype=torch.float64), dtype).overflow == 0
    assert check_cast(torch.tensor([tie], dtype=torch.float64), dtype).overflow == int(tie_overflows)
    assert check_cast(torch.tensor([past], dtype=torch.float64), dtype).overflow == 1


def test_clean_cast_reports_nothing():
    report = check_cast(torch.randn(1000), torch.bfloat16)
    assert report.ok() and report.problems() == [] and report.message() == ""


def test_float64_to_float32_overflow():
    x = torch.tensor([1.0, 1e39, 1e-50], dtype=torch.float64)
    report = check_cast(x, torch.float32)
    assert (report.overflow, report.underflow) == (1, 1)


def test_float8_without_inf_saturating_and_nan():
    # float8_e4m3fn has no inf: torch 2.13 clamps 1e6 (and inf) to 448 on CPU.
    x = torch.tensor([1.0, 449.0, 463.9, 464.0, 1e6, math.inf])
    report = check_cast(x, torch.float8_e4m3fn)
    # only 1e6: 449 and 463.9 round to 448, and so does 464, the tie (448's significand is even)
    assert report.overflow == 1
    assert report.lost_inf == 1
    assert "has no inf" in report.message()


@pytest.mark.skipif(not hasattr(torch, "float8_e4m3fnuz"), reason="no float8_e4m3fnuz")
def test_fnuz_overflow_to_nan_is_counted():
    report = check_cast(torch.tensor([1e6]), torch.float8_e4m3fnuz)
    assert report.overflow == 1


def test_subnormal_is_reported_only_when_asked():
    x = torch.tensor([1e-6])
    assert check_cast(x, torch.float16).subnormal == 1
    assert safe_cast(x, torch.float16).dtype == torch.float16  # allowed by default
    with pytest.raises(CastError, match="subnormal"):
        safe_cast(x, torch.float16, allow_subnormal=False)


def test_raise_message_has_counts_first_value_and_advice():
    with pytest.raises(CastError) as info:
        safe_cast(torch.tensor([1.0, 70000.0, 80000.0]), torch.float16)
    message = str(info.value)
    assert "2 of 3 values overflow" in message
    assert "70000.0 at index (1,)" in message
    assert "65504" in message
    assert "bfloat16" in message and "scale" in message
    assert isinstance(info.value, ArithmeticError)


def test_underflow_message():
    with pytest.raises(CastError, match="underflow to 0"):
        safe_cast(torch.tensor([1e-9, 1.0]), torch.float16)


def test_warn_returns_the_cast_tensor():
    x = torch.tensor([1.0, 70000.0])
    with pytest.warns(CastWarning, match="overflow") as record:
        y = safe_cast(x, torch.float16, errors="warn")
    assert len(record) == 1
    assert torch.equal(y, x.half())
    assert issubclass(CastWarning, UserWarning)


def test_nan_input_is_a_problem_unless_allowed():
    x = torch.tensor([1.0, math.nan])
    with pytest.raises(CastError, match="NaN"):
        safe_cast(x, torch.float16)
    y = safe_cast(x, torch.float16, allow_nan=True)
    assert torch.isnan(y[1])


def test_clean_safe_cast_emits_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = safe_cast(torch.tensor([1.0, -2.5, 1000.0]), torch.float16, errors="warn")
    assert y.tolist() == [1.0, -2.5, 1000.0]


@pytest.mark.parametrize("source", [torch.float16, torch.bfloat16, torch.float64])
def test_other_sources(source):
    x = torch.tensor([1.0, 3.0e38], dtype=torch.float64).to(source)
    report = check_cast(x, torch.float16)
    assert report.overflow == (0 if source == torch.float16 else 1)


def test_empty_and_scalar():
    assert check_cast(torch.empty(0), torch.float16).ok()
    report = check_cast(torch.tensor(1e5), torch.float16)
    assert report.overflow == 1 and report.first_overflow.index == ()


def test_non_tensor_raises():
    with pytest.raises(NotATensorError):
        safe_cast([1.0], torch.float16)
    with pytest.raises(NotATensorError):
        check_cast(1.0, torch.float16)


def test_integer_tensor_says_call_float():
    with pytest.raises(DtypeError, match=r"call \.float\(\) first"):
        safe_cast(torch.tensor([1, 2]), torch.float16)


def test_quantized_tensor_says_dequantize():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # quantized tensors are deprecated in torch 2.13
        q = torch.quantize_per_tensor(torch.rand(4), 0.1, 0, torch.qint8)
    with pytest.raises(DtypeError, match=r"dequantize\(\) first"):
        check_cast(q, torch.float16)


@pytest.mark.parametrize("bad", [torch.int8, torch.qint8, "float16"])
def test_bad_target_dtype(bad):
    with pytest.raises(DtypeError):
        safe_cast(torch.zeros(2), bad)


def test_bad_errors_argument():
    with pytest.raises(ConfigError, match="'raise' or 'warn'"):
        safe_cast(torch.zeros(2), torch.float16, errors="ignore")  # type: ignore[arg-type]
