import os
import tempfile
from pathlib import Path

import torch


def save_atomic(state, path):
    """Write to a temporary file next to ``path``, then rename: never a half-written checkpoint."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(state, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**10, growth_interval=3)
for step in range(7):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = model(torch.randn(8, 4)).float().pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
print("before saving:", scaler.state_dict())

with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "checkpoint.pt"
    save_atomic(
        {"step": 7, "model": model.state_dict(), "optimizer": optimizer.state_dict(), "scaler": scaler.state_dict()},
        path,
    )
    checkpoint = torch.load(path, weights_only=True)  # plain tensors and numbers: no code runs

restored = torch.amp.GradScaler("cpu")  # defaults: scale 65536, growth_interval 2000 ...
restored.load_state_dict(checkpoint["scaler"])  # ... until the saved state replaces them
print("after loading: ", restored.state_dict())
