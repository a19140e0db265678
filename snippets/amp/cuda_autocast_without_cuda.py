import os

os.environ["CUDA_VISIBLE_DEVICES"] = ""  # hide any GPU, so this shows a CPU-only machine everywhere

import warnings

import torch

from reference_impl.amp import AutocastUnavailableError, checked_autocast

x, w = torch.randn(4, 8), torch.randn(8, 8)

# The older spelling on a machine without CUDA: two warnings, then float32.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.cuda.amp.autocast():
        out = x @ w
    scaler = torch.cuda.amp.GradScaler()
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
print("output:", out.dtype, "| scaler enabled:", scaler.is_enabled(), "| scaler.scale(loss):", scaler.scale(torch.tensor(2.0)))

# This project runs every test with warnings as errors, so such code fails instead of "passing".
with warnings.catch_warnings():
    warnings.simplefilter("error")
    try:
        torch.autocast("cuda")
    except UserWarning as err:
        print("as an error:", type(err).__name__, err)

# reference_impl refuses the setup outright, with a typed error.
try:
    checked_autocast("cuda")
except AutocastUnavailableError as err:
    print(type(err).__name__, err)
