"""reference_impl.amp.training: the checked AMP step and its typed errors."""

from __future__ import annotations


import pytest
import torch

import reference_impl.amp as amp
from reference_impl.amp import (
    AutocastDtypeError,
    AutocastUnavailableError,
    ReferenceGradScaler,
    ScalerNotNeededError,
    ScalerRequiredError,
    UnknownDeviceTypeError,
    amp_policy,
    checked_autocast,
    make_scaler,
    train_step,
)
from reference_impl.errors import ConfigError, DtypeError, WrongTypeError

MSE = torch.nn.functional.mse_loss


def _setup():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    return model, torch.optim.SGD(model.parameters(), lr=0.05), torch.randn(32, 8), torch.randn(32, 1)


def test_policies():
    assert amp_policy("cpu") == amp.AmpPolicy("cpu", torch.bfloat16, False)
    assert amp_policy(torch.device("cpu"), torch.float16) == amp.AmpPolicy("cpu", torch.float16, True)


@pytest.mark.parametrize(
    "args, error, match",
    [
        (("tpu",), UnknownDeviceTypeError, "not a device"),
        (("meta",), UnknownDeviceTypeError, "not supported"),
        (("cpu", torch.float64), AutocastDtypeError, "not torch.float64"),
        (("cpu", torch.float32), AutocastDtypeError, "not torch.float32"),
        (("cpu", torch.int8), AutocastDtypeError, "not torch.int8"),
        (("cpu", "bfloat16"), DtypeError, "must be a torch.dtype"),
    ],
)
def test_policy_errors(args, error, match):
    with pytest.raises(error, match=match):
        amp_policy(*args)
    assert issubclass(error, (ConfigError, DtypeError))


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU-only behaviour")
def test_cuda_without_cuda_is_refused_not_disabled():
    with pytest.raises(AutocastUnavailableError, match="CUDA is not available"):
        amp_policy("cuda")
    with pytest.raises(AutocastUnavailableError):
        checked_autocast("cuda")


def test_bfloat16_step_trains_and_matches_float32_closely():
    model, opt, x, y = _setup()
    policy = amp_policy("cpu")
    with checked_autocast("cpu"):
        assert model(x).dtype == torch.bfloat16
    losses = [train_step(model, opt, MSE, x, y, policy=policy).loss for _ in range(30)]
    assert losses[-1] < losses[0]
    assert all(p.dtype == torch.float32 for p in model.parameters())
    ref, ref_opt, _, _ = _setup()
    for _ in range(30):
        ref_opt.zero_grad()
        MSE(ref(x), y).backward()
        ref_opt.step()
    assert abs(MSE(ref(x), y).item() - MSE(model(x), y).item()) < 0.05


@pytest.mark.parametrize("scaler_kind", ["torch", "reference"])
def test_float16_step_with_scaler_and_clipping(scaler_kind):
    model, opt, x, y = _setup()
    policy = amp_policy("cpu", torch.float16)
    if scaler_kind == "torch":
        scaler = make_scaler(policy, init_scale=2.0**30, growth_interval=5)
    else:
        scaler = ReferenceGradScaler("cpu", init_scale=2.0**30, growth_interval=5)
    results = [train_step(model, opt, MSE, x, y, policy=policy, scaler=scaler, max_grad_norm=1.0) for _ in range(25)]
    assert not results[0].stepped  # 2**30 overflows float16 in backward: skipped, backed off
    assert results[-1].stepped and results[-1].scale < 2.0**30
    assert results[-1].loss < results[0].loss


def test_scaler_errors():
    model, opt, x, y = _setup()
    with pytest.raises(ScalerNotNeededError, match="nothing to scale"):
        train_step(model, opt, MSE, x, y, policy=amp_policy("cpu"), scaler=torch.amp.GradScaler("cpu"))
    with pytest.raises(ScalerRequiredError, match="underflow"):
        train_step(model, opt, MSE, x, y, policy=amp_policy("cpu", torch.float16))
    with pytest.raises(WrongTypeError, match="scaler must be"):
        train_step(model, opt, MSE, x, y, policy=amp_policy("cpu", torch.float16), scaler=object())
    disabled = torch.amp.GradScaler("cpu", enabled=False)
    with pytest.raises(AutocastUnavailableError, match="disabled"):
        train_step(model, opt, MSE, x, y, policy=amp_policy("cpu", torch.float16), scaler=disabled)


def test_half_weights_refused():
    model, opt, x, y = _setup()
    model.to(torch.bfloat16)
    with pytest.raises(DtypeError, match="keep the weights in float32"):
        train_step(model, opt, MSE, x, y, policy=amp_policy("cpu"))


@pytest.mark.cuda
def test_cuda_float16_step():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x, y = torch.randn(32, 8, device="cuda"), torch.randn(32, 1, device="cuda")
    policy = amp_policy("cuda")
    assert policy.dtype == torch.float16 and policy.needs_scaler
    scaler = make_scaler(policy)
    results = [train_step(model, opt, MSE, x, y, policy=policy, scaler=scaler) for _ in range(10)]
    assert results[-1].loss < results[0].loss
    with checked_autocast("cuda"):
        assert model(x).dtype == torch.float16


def _fake_gpu(monkeypatch, capability):
    monkeypatch.setattr(torch.version, "hip", None)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda device=None: capability)
    # What torch.cuda.is_bf16_supported() says on such a GPU: by default emulation counts; with
    # including_emulation=False only compute capability 8.0 or newer (torch/cuda/__init__.py).
    monkeypatch.setattr(torch.cuda, "is_bf16_supported",
                        lambda including_emulation=True: including_emulation or capability[0] >= 8)


@pytest.mark.parametrize(
    ("capability", "native"),
    [((7, 0), False), ((7, 5), False), ((8, 0), True), ((8, 9), True), ((9, 0), True)],
)
def test_native_bfloat16_follows_compute_capability(monkeypatch, capability, native):
    _fake_gpu(monkeypatch, capability)
    assert amp.has_native_bfloat16() is native
    assert amp_policy("cuda").dtype == torch.float16
    if native:
        assert amp_policy("cuda", torch.bfloat16) == amp.AmpPolicy("cuda", torch.bfloat16, False)
    else:
        # V100 (7.0) and T4 (7.5): is_bf16_supported() is True there, yet bfloat16 is emulated.
        with pytest.raises(AutocastDtypeError, match=rf"capability {capability[0]}\.{capability[1]}.*emulation"):
            amp_policy("cuda", torch.bfloat16)


def test_native_bfloat16_without_cuda(monkeypatch):
    monkeypatch.setattr(torch.version, "hip", None)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert amp.has_native_bfloat16() is False
