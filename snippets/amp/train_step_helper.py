import os

os.environ["CUDA_VISIBLE_DEVICES"] = ""  # hide any GPU, so this shows a CPU-only machine everywhere

import torch

from reference_impl.amp import amp_policy, make_scaler, train_step
from reference_impl.errors import ReferenceImplError

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
x, y = torch.randn(64, 8), torch.randn(64, 1)
mse = torch.nn.functional.mse_loss

device = "cuda" if torch.cuda.is_available() else "cpu"
policy = amp_policy(device)  # CUDA: float16 + scaler; CPU: bfloat16, no scaler
scaler = make_scaler(policy)  # created once
print(policy, "| scaler:", scaler)
for step in range(20):
    result = train_step(model, optimizer, mse, x, y, policy=policy, scaler=scaler, max_grad_norm=1.0)
print(f"loss {result.loss:.3f}, stepped {result.stepped}, scale {result.scale}")

for bad in (
    lambda: amp_policy("cuda"),
    lambda: amp_policy("cpu", torch.float64),
    lambda: train_step(model, optimizer, mse, x, y, policy=policy, scaler=torch.amp.GradScaler("cpu")),
    lambda: train_step(model, optimizer, mse, x, y, policy=amp_policy("cpu", torch.float16)),
):
    try:
        bad()
    except ReferenceImplError as err:
        print(f"{type(err).__name__}: {err}")
