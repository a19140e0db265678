"""reference_impl.amp.functions: custom_fwd/custom_bwd Functions, checked with gradcheck."""

from __future__ import annotations

import pytest
import torch

from reference_impl.amp import DtypeLog, logsumexp_float32, matmul_with_dtype_log
from reference_impl.errors import NotATensorError, UnknownDeviceTypeError


@pytest.mark.parametrize("dim", [0, -1])
def test_logsumexp_gradcheck(dim):
    x = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: logsumexp_float32(t, dim), (x,))


def test_logsumexp_gradcheck_inside_autocast():
    # float64 is never cast by autocast, so gradcheck also runs inside the region.
    x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert torch.autograd.gradcheck(logsumexp_float32, (x,))


def test_logsumexp_matches_torch_and_stays_float32_under_autocast():
    torch.manual_seed(0)
    x = (torch.randn(16, 300) * 30).bfloat16().requires_grad_()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = logsumexp_float32(x)
    assert y.dtype == torch.float32
    torch.testing.assert_close(y, torch.logsumexp(x.detach().float(), -1))
    y.sum().backward()
    assert x.grad.dtype == torch.bfloat16
    torch.testing.assert_close(x.grad.float(), torch.softmax(x.detach().float(), -1), atol=1e-2, rtol=1e-2)


def test_logsumexp_large_values_do_not_overflow():
    x = torch.tensor([[1000.0, 1000.0]])
    assert logsumexp_float32(x).item() == pytest.approx(1000.0 + 0.6931471805599453)


def test_logged_matmul_backward_runs_under_forward_autocast_state():
    log = DtypeLog()
    a = torch.randn(3, 4, requires_grad=True)
    b = torch.randn(4, 2, requires_grad=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = matmul_with_dtype_log(a, b, log)
    out.float().sum().backward()
    assert log == [
        ("forward", "float32 @ float32 -> bfloat16; autocast on (bfloat16)"),
        ("backward", "grad bfloat16 -> bfloat16, bfloat16; autocast on (bfloat16)"),
    ]
    assert a.grad.dtype == b.grad.dtype == torch.float32  # autograd casts back to the leaf's dtype


def test_logged_matmul_without_autocast_and_gradcheck():
    log = DtypeLog()
    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    b = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda p, q: matmul_with_dtype_log(p, q, log), (a, b))
    assert log[0] == ("forward", "float64 @ float64 -> float64; autocast off")


def test_errors():
    with pytest.raises(NotATensorError):
        logsumexp_float32([1.0, 2.0])
    with pytest.raises(UnknownDeviceTypeError, match="meta"):
        logsumexp_float32(torch.empty(2, device="meta"))


@pytest.mark.cuda
def test_cuda_float16():
    log = DtypeLog()
    a = torch.randn(3, 4, device="cuda", requires_grad=True)
    with torch.autocast("cuda", dtype=torch.float16):
        out = matmul_with_dtype_log(a, torch.randn(4, 2, device="cuda"), log)
        y = logsumexp_float32(out)
    assert out.dtype == torch.float16 and y.dtype == torch.float32
    y.sum().backward()
    assert log[1] == ("backward", "grad float16 -> float16, float16; autocast on (float16)")
    x = torch.randn(3, 5, dtype=torch.float64, device="cuda", requires_grad=True)
    assert torch.autograd.gradcheck(logsumexp_float32, (x,))
