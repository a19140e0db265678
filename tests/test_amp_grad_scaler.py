"""reference_impl.amp.grad_scaler against torch.amp.GradScaler("cpu"), step for step."""

from __future__ import annotations

import copy
import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.amp import ReferenceGradScaler, ScalerStateError, update_scale
from reference_impl.errors import AutocastUnavailableError, ConfigError, DtypeError, NotATensorError, UnknownDeviceTypeError


def _model():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU(), torch.nn.Linear(5, 1))


def _run(scaler, model, optimizers, *, steps, inject, dtype=torch.float16, clip=False):
    """Train; at step s in ``inject``, overwrite one gradient entry with inject[s] (inf or NaN)."""
    torch.manual_seed(1)
    history = []
    for step in range(steps):
        x, y = torch.randn(8, 6), torch.randn(8, 1)
        for opt in optimizers:
            opt.zero_grad()
        with torch.autocast("cpu", dtype=dtype):
            loss = torch.nn.functional.mse_loss(model(x).float(), y)
        scaler.scale(loss).backward()
        if step in inject:
            which, value = inject[step]
            list(model.parameters())[which].grad.view(-1)[0] = value
        if clip:
            for opt in optimizers:
                scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
        before = [p.detach().clone() for p in model.parameters()]
        for opt in optimizers:
            scaler.step(opt)
        scaler.update()
        moved = [not torch.equal(b, p) for b, p in zip(before, model.parameters())]
        growth = scaler.growth_tracker if isinstance(scaler, ReferenceGradScaler) else scaler._get_growth_tracker()
        history.append((scaler.get_scale(), growth, tuple(moved)))
    return history


def _pair(**kwargs):
    model = _model()
    return (torch.amp.GradScaler("cpu", **kwargs), model), (ReferenceGradScaler("cpu", **kwargs), copy.deepcopy(model))


INF, NAN = math.inf, math.nan


@pytest.mark.parametrize("clip", [False, True])
def test_same_scales_and_skips_as_torch(clip):
    inject = {3: (0, INF), 4: (2, -INF), 9: (1, NAN), 20: (3, INF)}
    (ts, tm), (rs, rm) = _pair(init_scale=2.0**10, growth_interval=3)
    expected = _run(ts, tm, [torch.optim.SGD(tm.parameters(), lr=0.05, momentum=0.9)], steps=26, inject=inject, clip=clip)
    actual = _run(rs, rm, [torch.optim.SGD(rm.parameters(), lr=0.05, momentum=0.9)], steps=26, inject=inject, clip=clip)
    assert actual == expected
    skipped = [s for s, (_, _, moved) in enumerate(actual) if not any(moved)]
    assert skipped == sorted(inject)
    scales = [s for s, _, _ in actual]
    assert scales[3] == scales[2] / 2 and max(scales) > 2.0**10  # backed off, and grew again
    for p, q in zip(tm.parameters(), rm.parameters()):
        assert torch.equal(p, q)


def test_natural_float16_overflow_backs_off_like_torch():
    # An absurd initial scale makes the float16 backward overflow by itself (no injection).
    (ts, tm), (rs, rm) = _pair(init_scale=2.0**40, growth_interval=4)
    expected = _run(ts, tm, [torch.optim.Adam(tm.parameters(), lr=1e-3)], steps=40, inject={})
    actual = _run(rs, rm, [torch.optim.Adam(rm.parameters(), lr=1e-3)], steps=40, inject={})
    assert actual == expected
    assert not any(actual[0][2]) and actual[-1][0] < 2.0**40


def test_two_optimizers_one_overflows():
    inject = {2: (0, INF), 5: (3, NAN)}
    (ts, tm), (rs, rm) = _pair(init_scale=256.0, growth_interval=2)
    t_opts = [torch.optim.SGD(list(tm.parameters())[:2], lr=0.1), torch.optim.SGD(list(tm.parameters())[2:], lr=0.1)]
    r_opts = [torch.optim.SGD(list(rm.parameters())[:2], lr=0.1), torch.optim.SGD(list(rm.parameters())[2:], lr=0.1)]
    expected = _run(ts, tm, t_opts, steps=10, inject=inject)
    actual = _run(rs, rm, r_opts, steps=10, inject=inject)
    assert actual == expected
    assert actual[2][2] == (False, False, True, True)  # only the optimizer with the inf skipped


def test_bfloat16_grads_unscale_like_torch():
    (ts, tm), (rs, rm) = _pair(init_scale=2.0**7, growth_interval=2)
    tm.to(torch.bfloat16)
    rm.to(torch.bfloat16)
    expected = _run(ts, tm, [torch.optim.SGD(tm.parameters(), lr=0.1)], steps=6, inject={2: (0, INF)}, dtype=torch.bfloat16)
    actual = _run(rs, rm, [torch.optim.SGD(rm.parameters(), lr=0.1)], steps=6, inject={2: (0, INF)}, dtype=torch.bfloat16)
    assert actual == expected


@settings(max_examples=200, deadline=None)
@given(
    scale=st.floats(1e-30, 3e38),
    tracker=st.integers(0, 9),
    found_inf=st.booleans(),
    growth=st.floats(1.0001, 10.0),
    backoff=st.floats(0.01, 0.9999),
    interval=st.integers(1, 10),
)
def test_update_rule_matches_torch_kernel(scale, tracker, found_inf, growth, backoff, interval):
    scale = torch.tensor(scale, dtype=torch.float32).item()
    t_scale = torch.tensor(scale, dtype=torch.float32)
    t_tracker = torch.tensor(tracker, dtype=torch.int32)
    torch._amp_update_scale_(t_scale, t_tracker, torch.tensor(float(found_inf)), growth, backoff, interval)
    got = update_scale(scale, tracker, found_inf, growth_factor=growth, backoff_factor=backoff, growth_interval=interval)
    assert got == (t_scale.item(), t_tracker.item())


def test_growth_stops_below_float32_overflow():
    big = torch.tensor(3e38).item()  # a float32 value; doubling it would overflow float32
    assert update_scale(big, 0, False, growth_interval=1) == (big, 0)


def test_state_dict_moves_between_torch_and_reference():
    (ts, tm), (rs, _) = _pair(init_scale=64.0, growth_interval=5)
    _run(ts, tm, [torch.optim.SGD(tm.parameters(), lr=0.1)], steps=7, inject={1: (0, INF)})
    rs.load_state_dict(ts.state_dict())
    assert rs.state_dict() == ts.state_dict()
    back = torch.amp.GradScaler("cpu")
    back.load_state_dict(rs.state_dict())
    assert back.state_dict() == ts.state_dict()


def test_state_errors():
    model = _model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = ReferenceGradScaler("cpu")
    with pytest.raises(ScalerStateError, match="no step"):
        scaler.update()
    scaler.scale(model(torch.randn(2, 6)).sum()).backward()
    scaler.unscale_(opt)
    with pytest.raises(ScalerStateError, match="already called"):
        scaler.unscale_(opt)
    scaler.step(opt)
    with pytest.raises(ScalerStateError, match="already called"):
        scaler.step(opt)
    with pytest.raises(ScalerStateError, match="after step"):
        scaler.unscale_(opt)
    scaler.update()
    with pytest.raises(NotATensorError):
        scaler.scale(1.0)
    assert scaler.scale([torch.tensor(1.0), torch.tensor(2.0)]) == [torch.tensor(65536.0), torch.tensor(131072.0)]


def test_float16_gradients_are_refused_like_torch():
    model = _model().half()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = ReferenceGradScaler("cpu")
    scaler.scale(model(torch.randn(2, 6, dtype=torch.float16)).float().sum()).backward()
    with pytest.raises(DtypeError, match="float16"):
        scaler.step(opt)
    torch_scaler = torch.amp.GradScaler("cpu")
    torch_scaler.scale(torch.tensor(1.0))
    with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients"):
        torch_scaler.step(opt)


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"device": "tpu"}, UnknownDeviceTypeError),
        ({"growth_factor": 1.0}, ConfigError),
        ({"backoff_factor": 1.0}, ConfigError),
        ({"backoff_factor": 0.0}, ConfigError),
        ({"growth_interval": 0}, ConfigError),
        ({"init_scale": math.inf}, ConfigError),
        ({"init_scale": -1.0}, ConfigError),
    ],
)
def test_bad_configuration(kwargs, error):
    with pytest.raises(error):
        ReferenceGradScaler(**kwargs)


def test_empty_state_dict_from_disabled_scaler():
    with pytest.raises(ConfigError, match="disabled"):
        ReferenceGradScaler("cpu").load_state_dict({})
    with pytest.raises(ConfigError, match="lacks"):
        ReferenceGradScaler("cpu").load_state_dict({"scale": 1.0})
    with pytest.raises(ConfigError):
        ReferenceGradScaler("cpu").update(new_scale=0.0)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the CPU-only behaviour")
def test_cuda_scaler_without_cuda_raises():
    with pytest.raises(AutocastUnavailableError, match="CUDA is not available"):
        ReferenceGradScaler("cuda")


@pytest.mark.cuda
def test_same_scales_on_cuda():
    inject = {2: (0, INF), 5: (1, NAN)}
    model = _model().cuda()
    ts, rs = torch.amp.GradScaler("cuda", init_scale=64.0, growth_interval=2), ReferenceGradScaler("cuda", init_scale=64.0, growth_interval=2)
    results = []
    for scaler, m in ((ts, model), (rs, copy.deepcopy(model))):
        opt = torch.optim.SGD(m.parameters(), lr=0.1)
        torch.manual_seed(1)
        hist = []
        for step in range(10):
            opt.zero_grad()
            with torch.autocast("cuda", dtype=torch.float16):
                loss = m(torch.randn(8, 6, device="cuda")).float().pow(2).mean()
            scaler.scale(loss).backward()
            if step in inject:
                which, value = inject[step]
                list(m.parameters())[which].grad.view(-1)[0] = value
            scaler.step(opt)
            scaler.update()
            hist.append(scaler.get_scale())
        results.append(hist)
    assert results[0] == results[1]
