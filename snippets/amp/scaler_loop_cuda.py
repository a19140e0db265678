import torch

torch.manual_seed(0)
device = "cuda"
model = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
x = torch.randn(256, 20, device=device)
y = (x[:, :4] > 0).long().argmax(dim=1)

scaler = torch.amp.GradScaler(device)  # the same code as on the CPU: only the device string changes
for step in range(60):
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(device, dtype=torch.float16):
        loss = torch.nn.functional.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    scaler.step(optimizer)
    scaler.update()
print(f"loss {loss.item():.3f}  scale {scaler.get_scale():.0f}")
print(f"train accuracy {(model(x).argmax(1) == y).float().mean().item():.2f}")
