"""reference_impl.checkpoint: atomic saves survive interruption; resumes are exact."""

from __future__ import annotations

import inspect
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
import torch
from torch import nn

import reference_impl.checkpoint as ckpt
from reference_impl.checkpoint import (
    CheckpointFormatError,
    CheckpointNotFoundError,
    CheckpointWriteError,
    load_checkpoint,
    save_atomic,
    save_checkpoint,
    stale_temp_files,
)
from reference_impl.errors import ConfigError, NotAModuleError, ReferenceImplError
from docs_tools.docs_model import REPO


def _old_and_new(tmp_path):
    path = tmp_path / "ckpt.pt"
    save_atomic({"version": 1, "w": torch.arange(4.0)}, path)
    return path, {"version": 2, "w": torch.zeros(100_000)}


def _assert_old_intact(path):
    data = torch.load(path, weights_only=True)
    assert data["version"] == 1
    assert data["w"].tolist() == [0.0, 1.0, 2.0, 3.0]


# --- interrupted writes ------------------------------------------------------


def test_failing_writer_keeps_old_file_and_cleans_up(tmp_path, monkeypatch):
    path, new = _old_and_new(tmp_path)
    real_save = torch.save

    def half_then_fail(obj, f, *args, **kwargs):
        real_save(obj, f, *args, **kwargs)
        f.truncate(f.tell() // 2)  # the file is half written ...
        raise OSError(28, "No space left on device")  # ... when the disk fills up

    monkeypatch.setattr(ckpt.torch, "save", half_then_fail)
    with pytest.raises(CheckpointWriteError, match="previous file was kept") as info:
        save_atomic(new, path)
    assert isinstance(info.value, OSError) and isinstance(info.value, ReferenceImplError)
    assert isinstance(info.value.__cause__, OSError)
    _assert_old_intact(path)
    assert stale_temp_files(path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt"]


def test_failing_rename_keeps_old_file(tmp_path, monkeypatch):
    path, new = _old_and_new(tmp_path)

    def no_replace(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(ckpt.os, "replace", no_replace)
    with pytest.raises(CheckpointWriteError):
        save_atomic(new, path)
    _assert_old_intact(path)
    assert stale_temp_files(path) == []


def test_keyboard_interrupt_passes_through_unchanged_and_cleans_up(tmp_path, monkeypatch):
    path, new = _old_and_new(tmp_path)

    def interrupted(obj, f, *args, **kwargs):
        f.write(b"PK\x03\x04 partial")
        raise KeyboardInterrupt

    monkeypatch.setattr(ckpt.torch, "save", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_atomic(new, path)
    _assert_old_intact(path)
    assert stale_temp_files(path) == []


def test_unpicklable_object_raises_write_error(tmp_path):
    path, _ = _old_and_new(tmp_path)
    with pytest.raises(CheckpointWriteError):
        save_atomic({"f": lambda: 0}, path)
    _assert_old_intact(path)


# The child saves a first checkpoint, then starts a second save whose writer
# stops halfway through the bytes and waits to be killed.
_CHILD = textwrap.dedent(
    """
    import io, sys, time
    from pathlib import Path
    import torch
    import reference_impl.checkpoint as ckpt

    path, ready, mode = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    ckpt.save_atomic({"version": 1, "w": torch.arange(4.0)}, path)
    real_save = torch.save

    def stalls_halfway(obj, f, *args, **kwargs):
        buf = io.BytesIO()
        real_save(obj, buf, *args, **kwargs)
        data = buf.getvalue()
        f.write(data[: len(data) // 2])
        f.flush()
        ready.touch()
        time.sleep(120)  # killed here

    torch.save = stalls_halfway
    new = {"version": 2, "w": torch.zeros(100_000)}
    if mode == "atomic":
        ckpt.save_atomic(new, path)
    else:  # what most training scripts do
        with open(path, "wb") as f:
            torch.save(new, f)
    """
)


def _kill_mid_save(tmp_path, mode):
    path, ready = tmp_path / "ckpt.pt", tmp_path / "ready"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(path), str(ready), mode], env=env)
    try:
        deadline = time.monotonic() + 120
        while not ready.exists():
            assert proc.poll() is None, f"child exited early with {proc.returncode}"
            assert time.monotonic() < deadline, "child never reached the middle of the save"
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode != 0
    return path


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_killed_atomic_save_leaves_old_checkpoint_loadable(tmp_path):
    path = _kill_mid_save(tmp_path, "atomic")
    _assert_old_intact(path)
    leftovers = stale_temp_files(path)
    assert len(leftovers) == 1 and leftovers[0].stat().st_size > 0  # the half-written temp file
    for p in leftovers:
        p.unlink()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")
def test_killed_plain_torch_save_leaves_a_truncated_file(tmp_path):
    path = _kill_mid_save(tmp_path, "plain")
    with pytest.raises(RuntimeError, match="central directory"):
        torch.load(path, weights_only=True)
    with pytest.raises(CheckpointFormatError, match="truncated"):
        load_checkpoint(path, model=nn.Linear(1, 1))


# --- exact resume --------------------------------------------------------------


def _make(seed=0):
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 3))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1e-2)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0**8)
    return model, opt, sched, scaler


_X = torch.randn(64, 8, generator=torch.Generator().manual_seed(1))
_Y = torch.randint(0, 3, (64,), generator=torch.Generator().manual_seed(2))


def _epoch(model, opt, sched, scaler):
    """One epoch: random shuffling and dropout draw from the global generator."""
    model.train()
    losses = []
    for idx in torch.randperm(64).split(16):
        opt.zero_grad()
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(model(_X[idx]), _Y[idx])
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        losses.append(loss.item())
    sched.step()
    return losses


def test_resume_reproduces_uninterrupted_run_exactly(tmp_path):
    ref = _make()
    straight = [_epoch(*ref) for _ in range(6)]

    objs = _make()
    first = [_epoch(*objs) for _ in range(3)]
    save_checkpoint(tmp_path / "c.pt", model=objs[0], optimizer=objs[1], scheduler=objs[2], scaler=objs[3], epoch=3, step=12)
    torch.manual_seed(12345)  # the interrupted process's RNG state is lost ...
    fresh = _make(seed=99)  # ... and the new process builds everything from scratch
    meta = load_checkpoint(tmp_path / "c.pt", model=fresh[0], optimizer=fresh[1], scheduler=fresh[2], scaler=fresh[3])
    assert meta == {"epoch": 3, "step": 12, "extra": {}}
    rest = [_epoch(*fresh) for _ in range(3)]
    assert first + rest == straight  # bit-identical losses
    assert fresh[2].get_last_lr() == ref[2].get_last_lr()
    assert fresh[3].get_scale() == ref[3].get_scale()
    for a, b in zip(fresh[0].parameters(), ref[0].parameters()):
        assert torch.equal(a, b)


def test_resume_without_rng_differs(tmp_path):
    objs = _make()
    for _ in range(2):
        _epoch(*objs)
    save_checkpoint(tmp_path / "c.pt", model=objs[0], optimizer=objs[1], scheduler=objs[2], scaler=objs[3])
    expected = _epoch(*objs)
    fresh = _make(seed=5)
    load_checkpoint(tmp_path / "c.pt", model=fresh[0], optimizer=fresh[1], scheduler=fresh[2], scaler=fresh[3], restore_rng=False)
    assert _epoch(*fresh) != expected


def test_extra_values_round_trip(tmp_path):
    gen = torch.Generator().manual_seed(7)
    extra = {"best_acc": 0.97, "history": [1.0, 0.5], "gen": gen.get_state(), "name": "run-1"}
    save_checkpoint(tmp_path / "c.pt", model=nn.Linear(2, 2), extra=extra, epoch=1)
    meta = load_checkpoint(tmp_path / "c.pt", model=nn.Linear(2, 2))
    assert meta["extra"]["best_acc"] == 0.97 and meta["extra"]["history"] == [1.0, 0.5]
    assert torch.equal(meta["extra"]["gen"], gen.get_state())


# --- typed errors --------------------------------------------------------------


def test_missing_file(tmp_path):
    with pytest.raises(CheckpointNotFoundError, match="no checkpoint") as info:
        load_checkpoint(tmp_path / "nope.pt", model=nn.Linear(1, 1))
    assert isinstance(info.value, FileNotFoundError)


def test_missing_folder(tmp_path):
    with pytest.raises(CheckpointWriteError, match="does not exist"):
        save_atomic({}, tmp_path / "no" / "such" / "ckpt.pt")


def test_whole_model_pickle_is_refused(tmp_path):
    path = tmp_path / "model.pt"
    torch.save(nn.Linear(2, 2), path)  # pickles the class: loading would need weights_only=False
    with pytest.raises(CheckpointFormatError, match="pickled object") as info:
        load_checkpoint(path, model=nn.Linear(2, 2))
    assert isinstance(info.value, ValueError)
    assert "Weights only load failed" in str(info.value)


def test_plain_state_dict_is_not_a_checkpoint(tmp_path):
    path = tmp_path / "sd.pt"
    torch.save(nn.Linear(2, 2).state_dict(), path)
    with pytest.raises(CheckpointFormatError, match="not written by save_checkpoint"):
        load_checkpoint(path, model=nn.Linear(2, 2))


@pytest.mark.parametrize("what", ["optimizer", "scheduler", "scaler"])
def test_asking_for_a_state_that_was_not_saved(tmp_path, what):
    model, opt, sched, scaler = _make()
    save_checkpoint(tmp_path / "c.pt", model=model)
    kwargs = {"optimizer": opt, "scheduler": sched, "scaler": scaler}
    with pytest.raises(CheckpointFormatError, match=f"no {what} state"):
        load_checkpoint(tmp_path / "c.pt", model=model, **{what: kwargs[what]})


def test_bad_arguments(tmp_path):
    with pytest.raises(NotAModuleError, match="nn.Module"):
        save_checkpoint(tmp_path / "c.pt", model={"w": torch.ones(1)})
    with pytest.raises(NotAModuleError, match="state_dict"):
        save_checkpoint(tmp_path / "c.pt", model=nn.Linear(1, 1), optimizer="adam")
    with pytest.raises(ConfigError):
        save_checkpoint(tmp_path / "c.pt", model=nn.Linear(1, 1), epoch=-1)
    with pytest.raises(NotAModuleError):
        load_checkpoint(tmp_path / "c.pt", model=None)
    assert issubclass(NotAModuleError, TypeError) and issubclass(NotAModuleError, ReferenceImplError)


def test_wrong_architecture_is_reported_by_load_state_dict(tmp_path):
    save_checkpoint(tmp_path / "c.pt", model=nn.Linear(2, 2))
    with pytest.raises(RuntimeError, match="size mismatch"):
        load_checkpoint(tmp_path / "c.pt", model=nn.Linear(3, 2))


@pytest.mark.parametrize("name", ckpt.__all__)
def test_public_api_is_documented(name):
    obj = getattr(ckpt, name)
    if inspect.isfunction(obj):
        doc = inspect.getdoc(obj) or ""
        sections = ["Args:", "Returns:", "Examples:"] + (["Raises:"] if name != "stale_temp_files" else [])
        for section in sections:
            assert section in doc, f"{name} lacks {section}"
    elif inspect.isclass(obj):
        assert inspect.getdoc(obj)


@pytest.mark.cuda
def test_cuda_checkpoint_loads_on_cpu_and_back(tmp_path):
    model = nn.Linear(4, 2).cuda()
    opt = torch.optim.Adam(model.parameters())
    model(torch.randn(3, 4, device="cuda")).sum().backward()
    opt.step()
    save_checkpoint(tmp_path / "c.pt", model=model, optimizer=opt)
    cpu_model = nn.Linear(4, 2)
    cpu_opt = torch.optim.Adam(cpu_model.parameters())
    load_checkpoint(tmp_path / "c.pt", model=cpu_model, optimizer=cpu_opt)
    assert torch.equal(cpu_model.weight, model.weight.cpu())
    back = nn.Linear(4, 2).cuda()
    back_opt = torch.optim.Adam(back.parameters())
    load_checkpoint(tmp_path / "c.pt", model=back, optimizer=back_opt, map_location="cuda")
    assert back_opt.state_dict()["state"][0]["exp_avg"].device.type == "cuda"


@pytest.mark.cuda
def test_cuda_dropout_resumes_exactly(tmp_path):
    """CUDA dropout draws from the CUDA generator, which the checkpoint saves too."""
    x = torch.randn(64, 8, device="cuda", generator=torch.Generator("cuda").manual_seed(3))

    def make():
        model = nn.Sequential(nn.Linear(8, 32), nn.Dropout(0.5), nn.Linear(32, 1)).cuda()
        return model, torch.optim.Adam(model.parameters(), lr=1e-2)

    def steps(model, opt, n):
        out = []
        for _ in range(n):
            opt.zero_grad()
            loss = model(x).square().mean()
            loss.backward()
            opt.step()
            out.append(loss.item())
        return out

    torch.manual_seed(0)
    model, opt = make()
    first = steps(model, opt, 3)
    save_checkpoint(tmp_path / "c.pt", model=model, optimizer=opt)
    expected = steps(model, opt, 3)
    torch.manual_seed(123)
    torch.randn(10, device="cuda")  # move the CUDA generator on
    model, opt = make()
    load_checkpoint(tmp_path / "c.pt", model=model, optimizer=opt, map_location="cuda")
    assert first and steps(model, opt, 3) == pytest.approx(expected, rel=1e-6, abs=0)


def test_permissions_are_those_torch_save_gives(tmp_path):
    """mkstemp's 0600 would make a shared checkpoint unreadable to the group; torch.save gives 0666 & ~umask."""
    import os
    import stat

    from reference_impl.checkpoint import save_atomic

    old = os.umask(0o022)
    try:
        torch.save({"w": torch.ones(1)}, tmp_path / "plain.pt")
        save_atomic({"w": torch.ones(1)}, tmp_path / "atomic.pt")
    finally:
        os.umask(old)
    plain = stat.S_IMODE((tmp_path / "plain.pt").stat().st_mode)
    atomic = stat.S_IMODE((tmp_path / "atomic.pt").stat().st_mode)
    assert atomic == plain == 0o644
