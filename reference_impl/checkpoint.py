"""Training checkpoints that survive a crash and resume training exactly.

``torch.save(obj, "ckpt.pt")`` writes straight into the final file. If the
process dies halfway (out of memory, a killed job, a full disk, a power cut),
what is left is a truncated file, and the previous good checkpoint has already
been overwritten. [`save_atomic`][reference_impl.checkpoint.save_atomic] writes
to a temporary file in the same folder, flushes it to disk with ``fsync`` and
then renames it over the old file with ``os.replace``, which is atomic on POSIX
(Python promises no more; on Windows it replaces the file in one call): a reader
sees either the old checkpoint or the new one, never half of one.

[`save_checkpoint`][reference_impl.checkpoint.save_checkpoint] and
[`load_checkpoint`][reference_impl.checkpoint.load_checkpoint] bundle what an
exact resume needs: the model, optimizer, LR scheduler and gradient scaler
state, the epoch/step counters and the random number generator states. Loading
always uses ``torch.load(..., weights_only=True)``, so a checkpoint can never
run code when it is opened.

Errors are typed: [CheckpointNotFoundError][reference_impl.errors.CheckpointNotFoundError]
(also a ``FileNotFoundError``), [CheckpointFormatError][reference_impl.errors.CheckpointFormatError]
(also a ``ValueError``: truncated, not a checkpoint, or missing a state) and
[CheckpointWriteError][reference_impl.errors.CheckpointWriteError] (also an
``OSError``: the write failed and the old file was kept).
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path
from typing import Any

import torch

from reference_impl._checks import cuda_usable, require_module
from reference_impl.errors import (
    CheckpointError,
    CheckpointFormatError,
    CheckpointNotFoundError,
    CheckpointWriteError,
    ConfigError,
    NotAModuleError,
)

__all__ = [
    "FORMAT",
    "CheckpointError",
    "CheckpointFormatError",
    "CheckpointNotFoundError",
    "CheckpointWriteError",
    "load_checkpoint",
    "save_atomic",
    "save_checkpoint",
    "stale_temp_files",
]

#: Value of the ``"format"`` key that marks a file written by ``save_checkpoint``.
FORMAT = "reference_impl.checkpoint/1"

_TEMP_SUFFIX = ".tmp"


def _temp_prefix(path: Path) -> str:
    return f".{path.name}."


def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened (Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def save_atomic(obj: Any, path: str | os.PathLike[str], *, fsync: bool = True) -> Path:
    """Save ``obj`` with ``torch.save`` so that ``path`` is never left half-written.

    The data goes to a temporary file in the same folder (same file system, so
    the final rename cannot turn into a copy), is flushed and fsync'ed, and then
    ``os.replace`` puts it at ``path`` in one step. If anything fails before the
    rename, the temporary file is removed and the old ``path`` is untouched. If
    the process is killed, at worst a hidden temporary file named
    ``.<name>.<random>.tmp`` stays behind (see
    [`stale_temp_files`][reference_impl.checkpoint.stale_temp_files]); ``path``
    still holds the previous complete checkpoint.

    Args:
        obj: What to save (usually a dict of state dicts and plain values).
        path: Destination file. Its folder must exist.
        fsync: Flush the file and the folder entry to the disk before returning
            (default). ``False`` is faster and still atomic against a crash of
            the process, but not against a crash of the machine.

    Returns:
        The destination as a ``Path``.

    Raises:
        CheckpointWriteError: The folder does not exist, or writing failed
            (disk full, permission denied, an error while pickling). The old
            file is kept.

    Examples:
        >>> import tempfile, torch
        >>> from pathlib import Path
        >>> from reference_impl.checkpoint import save_atomic, stale_temp_files
        >>> with tempfile.TemporaryDirectory() as d:
        ...     p = save_atomic({"w": torch.ones(2)}, Path(d) / "ckpt.pt")
        ...     print(p.name, torch.load(p, weights_only=True)["w"].tolist(), stale_temp_files(p))
        ckpt.pt [1.0, 1.0] []
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise CheckpointWriteError(f"folder {str(folder)!r} does not exist; create it first (Path.mkdir(parents=True))")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=_TEMP_SUFFIX, dir=folder)
    except OSError as err:
        raise CheckpointWriteError(f"cannot create a temporary file in {str(folder)!r}: {err}") from err
    tmp = Path(tmp_name)
    try:
        # mkstemp creates the file readable by its owner only (0600); torch.save(obj, path) gives what
        # open() gives, 0666 less the umask (usually 0644). Give the checkpoint those permissions too.
        os.chmod(tmp, 0o666 & ~_current_umask())
        with os.fdopen(fd, "wb") as f:
            torch.save(obj, f)
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as err:
        tmp.unlink(missing_ok=True)
        if isinstance(err, Exception):
            raise CheckpointWriteError(
                f"saving {str(path)!r} failed ({type(err).__name__}: {err}); the previous file was kept"
            ) from err
        raise  # KeyboardInterrupt, SystemExit: clean up, then let them through unchanged
    if fsync:
        _fsync_dir(folder)
    return path


def _current_umask() -> int:
    mask = os.umask(0)  # the only way to read it is to set it; put it back at once
    os.umask(mask)
    return mask


def stale_temp_files(path: str | os.PathLike[str]) -> list[Path]:
    """Temporary files that an interrupted [`save_atomic`][reference_impl.checkpoint.save_atomic] left next to ``path``.

    They are safe to delete once no save to ``path`` is running.

    Args:
        path: The checkpoint path that was being written.

    Returns:
        The leftover temporary files, sorted by name (empty if none).

    Examples:
        >>> import tempfile
        >>> from pathlib import Path
        >>> from reference_impl.checkpoint import stale_temp_files
        >>> with tempfile.TemporaryDirectory() as d:
        ...     _ = (Path(d) / ".ckpt.pt.abc123.tmp").write_bytes(b"PK")  # what a killed save leaves
        ...     print([p.name for p in stale_temp_files(Path(d) / "ckpt.pt")])
        ['.ckpt.pt.abc123.tmp']
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        return []
    prefix = _temp_prefix(path)
    return sorted(p for p in folder.iterdir() if p.name.startswith(prefix) and p.name.endswith(_TEMP_SUFFIX))


def _state_of(obj: Any, name: str) -> dict[str, Any] | None:
    if obj is None:
        return None
    if not hasattr(obj, "state_dict"):
        raise NotAModuleError(f"{name} must have a state_dict() method (got {type(obj).__name__}); pass the object itself")
    return obj.state_dict()


def save_checkpoint(
    path: str | os.PathLike[str],
    *,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer | None = None,
    scheduler: Any | None = None,
    scaler: torch.amp.GradScaler | None = None,
    epoch: int = 0,
    step: int = 0,
    extra: dict[str, Any] | None = None,
    fsync: bool = True,
) -> Path:
    """Write everything needed to resume training to ``path``, atomically.

    Saves ``state_dict()`` of the model, optimizer, scheduler and scaler (not
    the objects: no pickled classes, so the file loads with
    ``weights_only=True``), the counters, ``extra``, and the states of
    PyTorch's global CPU generator, the CUDA generators (if CUDA was used) and
    Python's ``random``, so that shuffling and dropout continue exactly as if
    training had not stopped.

    Args:
        path: Destination file (written with
            [`save_atomic`][reference_impl.checkpoint.save_atomic]).
        model: The model.
        optimizer: Its optimizer, if training continues.
        scheduler: An LR scheduler (anything with ``state_dict``), or None.
        scaler: A ``torch.amp.GradScaler``, or None.
        epoch: Number of finished epochs.
        step: Number of finished optimizer steps.
        extra: Other values to keep (best metric, a ``torch.Generator`` state,
            ...). Only tensors, numbers, strings, lists, tuples and dicts load
            with ``weights_only=True``.
        fsync: Passed to ``save_atomic``.

    Returns:
        The destination as a ``Path``.

    Raises:
        NotAModuleError: ``model`` is not an ``nn.Module`` or another argument
            has no ``state_dict()``.
        ConfigError: ``epoch`` or ``step`` is negative.
        CheckpointWriteError: Writing failed; the old file is kept.

    Examples:
        >>> import tempfile, torch
        >>> from pathlib import Path
        >>> from reference_impl.checkpoint import load_checkpoint, save_checkpoint
        >>> model = torch.nn.Linear(2, 1)
        >>> opt = torch.optim.SGD(model.parameters(), lr=0.1)
        >>> with tempfile.TemporaryDirectory() as d:
        ...     p = save_checkpoint(Path(d) / "ckpt.pt", model=model, optimizer=opt, epoch=3, step=30)
        ...     print(load_checkpoint(p, model=model, optimizer=opt))
        {'epoch': 3, 'step': 30, 'extra': {}}
    """
    require_module(model)
    if not (isinstance(epoch, int) and isinstance(step, int)) or epoch < 0 or step < 0:
        raise ConfigError(f"epoch and step must be non-negative ints, got epoch={epoch!r}, step={step!r}")
    payload = {
        "format": FORMAT,
        "model": model.state_dict(),
        "optimizer": _state_of(optimizer, "optimizer"),
        "scheduler": _state_of(scheduler, "scheduler"),
        "scaler": _state_of(scaler, "scaler"),
        "epoch": epoch,
        "step": step,
        "rng": {"torch": torch.get_rng_state(), "python": random.getstate(), "cuda": _cuda_rng_states()},
        "extra": dict(extra or {}),
    }
    return save_atomic(payload, path, fsync=fsync)


def _read(path: Path, map_location: Any) -> dict[str, Any]:
    if not path.is_file():
        raise CheckpointNotFoundError(f"no checkpoint at {str(path)!r}; check the path or start training from scratch")
    try:
        data = torch.load(path, map_location=map_location, weights_only=True)
    except Exception as err:  # truncated zip, a whole-model pickle refused by weights_only, ...
        first_line = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise CheckpointFormatError(
            f"{str(path)!r} is not a loadable checkpoint ({type(err).__name__}: {first_line}); "
            "it may be truncated by an interrupted non-atomic save, or be a pickled object rather than state dicts"
        ) from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointFormatError(
            f"{str(path)!r} was not written by save_checkpoint (no format key {FORMAT!r}); "
            "load it with torch.load(path, weights_only=True) and restore the states yourself"
        )
    return data


def load_checkpoint(
    path: str | os.PathLike[str],
    *,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer | None = None,
    scheduler: Any | None = None,
    scaler: torch.amp.GradScaler | None = None,
    map_location: str | torch.device | None = "cpu",
    restore_rng: bool = True,
) -> dict[str, Any]:
    """Restore a checkpoint written by [`save_checkpoint`][reference_impl.checkpoint.save_checkpoint] into live objects.

    Build the model, optimizer, scheduler and scaler exactly as for a fresh
    run, then call this: their states are loaded in place. The file is read
    with ``torch.load(..., weights_only=True)``.

    Args:
        path: The checkpoint file.
        model: Receives the model state (``strict`` key matching).
        optimizer: Receives the optimizer state, or None to skip it.
        scheduler: Receives the scheduler state, or None to skip it.
        scaler: Receives the GradScaler state, or None to skip it.
        map_location: Where tensors are loaded (default ``"cpu"``; the model's
            ``load_state_dict`` copies them to the model's device).
        restore_rng: Also restore the global torch CPU, CUDA (when saved and
            the same number of GPUs is visible) and Python ``random``
            generator states (default), needed for an exact resume.

    Returns:
        ``{"epoch": ..., "step": ..., "extra": {...}}`` as saved.

    Raises:
        CheckpointNotFoundError: ``path`` does not exist.
        CheckpointFormatError: The file is truncated, is not a checkpoint of
            this format, or lacks a state that an argument asks for.
        NotAModuleError: ``model`` is not an ``nn.Module``.

    Examples:
        >>> import tempfile, torch
        >>> from pathlib import Path
        >>> from reference_impl.checkpoint import CheckpointFormatError, load_checkpoint, save_checkpoint
        >>> with tempfile.TemporaryDirectory() as d:
        ...     p = save_checkpoint(Path(d) / "ckpt.pt", model=torch.nn.Linear(2, 1))
        ...     try:
        ...         load_checkpoint(p, model=torch.nn.Linear(2, 1),
        ...                         optimizer=torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1))
        ...     except CheckpointFormatError as err:
        ...         print(type(err).__name__, str(err).split(";")[0].split(" has ")[1])
        CheckpointFormatError no optimizer state
    """
    require_module(model)
    path = Path(path)
    data = _read(path, map_location)
    wanted = {"optimizer": optimizer, "scheduler": scheduler, "scaler": scaler}
    for key, obj in wanted.items():
        if obj is not None and data.get(key) is None:
            raise CheckpointFormatError(
                f"{str(path)!r} has no {key} state; pass {key}=None to load the rest, or resume from a checkpoint saved with it"
            )
    model.load_state_dict(data["model"])
    for key, obj in wanted.items():
        if obj is not None:
            obj.load_state_dict(data[key])
    if restore_rng:
        rng = data["rng"]
        torch.set_rng_state(rng["torch"].cpu())  # generator states must be CPU byte tensors
        random.setstate(_as_random_state(rng["python"]))
        cuda_states = rng.get("cuda")
        if cuda_states and cuda_usable() and len(cuda_states) == torch.cuda.device_count():
            torch.cuda.set_rng_state_all([state.cpu() for state in cuda_states])
    return {"epoch": data["epoch"], "step": data["step"], "extra": data["extra"]}


def _cuda_rng_states() -> list[torch.Tensor] | None:
    """The CUDA generators' states, if CUDA has been used in this process (else None)."""
    if cuda_usable() and torch.cuda.is_initialized():
        return torch.cuda.get_rng_state_all()
    return None


def _as_random_state(state: Any) -> tuple:
    """``random.setstate`` wants tuples; keep this robust if a list comes back."""
    version, internal, gauss = state
    return (version, tuple(internal), gauss)
