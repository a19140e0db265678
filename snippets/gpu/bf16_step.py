import torch
from torch import nn

torch.manual_seed(0)
device = "cpu"
block = nn.TransformerEncoderLayer(d_model=64, nhead=4, dim_feedforward=128, batch_first=True).to(device)
optimizer = torch.optim.AdamW(block.parameters(), lr=1e-3)
x = torch.randn(8, 16, 64, device=device)
target = torch.randn(8, 16, 64, device=device)

for step in range(3):
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(device, dtype=torch.bfloat16):  # no GradScaler: bfloat16 has float32's range
        hidden = block.linear1(x)  # a matmul: runs in bfloat16
        out = block(x)  # float32: the residual adds the float32 input, and LayerNorm keeps that dtype
        loss = nn.functional.mse_loss(out.float(), target)
    loss.backward()
    optimizer.step()

print("linear layer output:", hidden.dtype)
print("block output:", out.dtype)
print("weights and gradients:", block.linear1.weight.dtype, block.linear1.weight.grad.dtype)
print("loss is finite:", torch.isfinite(loss).item())
