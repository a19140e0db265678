import warnings

import torch
from torch.utils.data import DataLoader

x = torch.zeros(1024)
print("accelerator available:", torch.accelerator.is_available())
print("is_pinned():", x.is_pinned())

# Pinned (page-locked) host memory is allocated by the accelerator's driver: no accelerator, no pinning.
for label, action in [
    ("x.pin_memory()", lambda: x.pin_memory()),
    ("torch.empty(4, pin_memory=True)", lambda: torch.empty(4, pin_memory=True)),
]:
    try:
        action()
    except RuntimeError as err:
        print(f"{label}\n  -> RuntimeError: {err}")

# DataLoader(pin_memory=True) only warns and carries on unpinned:
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    batch = next(iter(DataLoader(torch.arange(8.0), batch_size=4, pin_memory=True)))
print(f"DataLoader: {caught[0].category.__name__}: {caught[0].message}")
print("batch is pinned:", batch.is_pinned())

# Portable code asks first.
pin = torch.accelerator.is_available()
loader = DataLoader(torch.arange(8.0), batch_size=4, pin_memory=pin)
print("pin_memory =", pin)
