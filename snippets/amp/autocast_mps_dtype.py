import warnings

import torch

print("MPS available:", torch.backends.mps.is_available())
print("autocast's default dtype for mps:", torch.get_autocast_dtype("mps"))

# Any other dtype than float16 and bfloat16: a warning, and autocast switches itself off (on any machine).
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autocast("mps", dtype=torch.float32):
        pass
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
if not caught:
    print("no warning: this torch version accepts the dtype")
