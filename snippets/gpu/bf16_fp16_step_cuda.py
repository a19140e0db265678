import torch
from torch import nn


def train(dtype, steps=50):
    torch.manual_seed(0)
    block = nn.TransformerEncoderLayer(d_model=512, nhead=8, batch_first=True).cuda()
    optimizer = torch.optim.AdamW(block.parameters(), lr=1e-4)
    x = torch.randn(32, 256, 512, device="cuda")
    target = torch.randn(32, 256, 512, device="cuda")
    # float16 needs loss scaling; for bfloat16 the scaler would only cost time.
    scaler = torch.amp.GradScaler("cuda", enabled=dtype == torch.float16)
    for _ in range(steps):
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=dtype):
            loss = nn.functional.mse_loss(block(x).float(), target)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    return loss.item()


print(f"float16 + GradScaler: loss {train(torch.float16):.4f}")
print(f"bfloat16, no scaler:  loss {train(torch.bfloat16):.4f}")
