from decimal import Decimal

import torch

x = torch.tensor(1.23)  # float32 already rounds 1.23
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    stored = x.to(dtype)
    exact = Decimal(stored.item())  # the exact binary value that is stored
    print(f"{str(dtype):15} {str(stored):35} exact={exact}")
    print(f"{'':15} error vs 1.23 = {float(exact - Decimal('1.23')):+.3e}")
