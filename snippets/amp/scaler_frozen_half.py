import torch
from torch import nn


class LoRALinear(nn.Module):
    """A frozen Linear plus a trainable low-rank update (LoRA): base(x) + B(A(x))."""

    def __init__(self, base, rank, dtype):
        super().__init__()
        self.base = base
        self.A = nn.Linear(base.in_features, rank, bias=False, dtype=dtype)
        self.B = nn.Linear(rank, base.out_features, bias=False, dtype=dtype)
        nn.init.zeros_(self.B.weight)  # starts as the base model

    def forward(self, x):
        return self.base(x) + self.B(self.A(x))


def make_model(base_dtype, adapter_dtype):
    torch.manual_seed(0)
    # A "pretrained" model loaded in 16 bits and frozen; adapters on its two Linear layers.
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 1)).to(base_dtype)
    model.requires_grad_(False)
    model[0] = LoRALinear(model[0], rank=4, dtype=adapter_dtype)
    model[2] = LoRALinear(model[2], rank=4, dtype=adapter_dtype)
    return model


def fine_tune(model, autocast_dtype, scaler=None, steps=30):
    trainable = [p for p in model.parameters() if p.requires_grad]
    frozen = [p for p in model.parameters() if not p.requires_grad]
    print(f"  trainable: {sum(p.numel() for p in trainable)} parameters in {trainable[0].dtype}; "
          f"frozen: {sum(p.numel() for p in frozen)} in {frozen[0].dtype}")
    optimizer = torch.optim.AdamW(trainable, lr=1e-2)  # only the adapters
    torch.manual_seed(1)
    x, y = torch.randn(256, 32), torch.randn(256, 1)
    losses = []
    for _ in range(steps):
        with torch.autocast("cpu", dtype=autocast_dtype):
            loss = (model(x).float() - y).pow(2).mean()
        optimizer.zero_grad()
        if scaler is None:
            loss.backward()
            optimizer.step()
        else:
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)  # as Trainer does before clipping
            torch.nn.utils.clip_grad_norm_(trainable, 1.0)
            scaler.step(optimizer)
            scaler.update()
        losses.append(loss.item())
    print(f"  loss {losses[0]:.2f} -> {losses[-1]:.2f}")


print("float16 base, float16 adapters, GradScaler:")
try:
    fine_tune(make_model(torch.float16, torch.float16), torch.float16, torch.amp.GradScaler("cpu"))
except ValueError as err:
    print(" ", type(err).__name__, err)

print("float16 base, float32 adapters, GradScaler:")
fine_tune(make_model(torch.float16, torch.float32), torch.float16, torch.amp.GradScaler("cpu"))

print("bfloat16 base, float32 adapters, no scaler:")
fine_tune(make_model(torch.bfloat16, torch.float32), torch.bfloat16)
