"""TorchScript still runs in torch 2.13 but every entry point warns deprecated: catch and print the warnings."""

import warnings

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2)).eval()
example = torch.randn(3, 4)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    traced = torch.jit.trace(model, example)
    scripted = torch.jit.script(model)
    torch.jit.save(traced, "model_ts.pt")
    loaded = torch.jit.load("model_ts.pt")

seen = []
for w in caught:
    line = f"{w.category.__name__}: {w.message}"
    if line not in seen:
        seen.append(line)
print("\n".join(seen))
with torch.no_grad():
    print("TorchScript output equals eager:", torch.equal(loaded(example), model(example)))
