"""A save that dies halfway: plain torch.save destroys the old checkpoint, save_atomic keeps it."""

import io
import os
from pathlib import Path
from unittest import mock

import torch

from reference_impl.checkpoint import CheckpointWriteError, save_atomic, stale_temp_files

real_save = torch.save


def dies_halfway(obj, f, *args, **kwargs):
    """Stand-in for a crash (full disk, killed job): half the bytes reach the file, then an error."""
    buf = io.BytesIO()
    real_save(obj, buf)
    half = buf.getvalue()[: len(buf.getvalue()) // 2]
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            fh.write(half)
    else:
        f.write(half)
    raise OSError(28, "No space left on device")


old, new = {"epoch": 1, "w": torch.ones(1000)}, {"epoch": 2, "w": torch.zeros(1000)}

# Plain torch.save writes straight into the final file.
plain = Path("plain.pt")
torch.save(old, plain)
try:
    with mock.patch("torch.save", dies_halfway):
        torch.save(new, plain)
except OSError as err:
    print("plain save failed:", err)
try:
    torch.load(plain)
except RuntimeError as err:
    print("and the old checkpoint is gone:", type(err).__name__, err)

# save_atomic writes a temporary file, fsyncs it, then os.replace()s it over the old one.
atomic = Path("atomic.pt")
save_atomic(old, atomic)
try:
    with mock.patch("torch.save", dies_halfway):
        save_atomic(new, atomic)
except CheckpointWriteError as err:
    print("atomic save failed:", type(err).__name__)
print("old checkpoint intact, epoch", torch.load(atomic)["epoch"], "| temp files left:", stale_temp_files(atomic))
save_atomic(new, atomic)
print("next save succeeded, epoch", torch.load(atomic)["epoch"])
