import torch
from torch import nn

torch.manual_seed(0)
# A model loaded in float16 (from_pretrained(..., dtype=torch.float16), or .half()) on a CPU.
model = nn.Sequential(nn.Linear(64, 32), nn.GELU(), nn.LayerNorm(32)).half()
x = torch.randn(8, 64, dtype=torch.float16)
print("float16 Linear, GELU and LayerNorm on the CPU:", model(x).dtype, tuple(model(x).shape))

# A few ops still have no float16 kernel on the CPU.
for name, op in (("torch.cdist", lambda: torch.cdist(x, x)), ("torch.linalg.svd", lambda: torch.linalg.svd(x))):
    try:
        op()
        print(f"{name}: ran")
    except NotImplementedError as err:
        print(f"{name}: {type(err).__name__}: {err}")

# The fix: float32 on the CPU (or bfloat16 where the CPU has AVX512-BF16 or AMX).
print("torch.cdist in float32:", torch.cdist(x.float(), x.float()).dtype)
