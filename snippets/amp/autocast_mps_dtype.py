import warnings

import torch

print("MPS available:", torch.backends.mps.is_available())
print("autocast's default dtype for mps:", torch.get_autocast_dtype("mps"))

# Any other dtype than float16 and bfloat16: a warning, and autocast switches itself off (on any machine).
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autocast("mps", dtype=torch.float32):
        pass
print(f"{caught[0].category.__name__}: {caught[0].message}")
