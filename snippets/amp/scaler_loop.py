import torch

torch.manual_seed(0)
device = "cpu"
model = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 4)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
x = torch.randn(256, 20, device=device)
y = (x[:, :4] > 0).long().argmax(dim=1)  # a learnable 4-class target

scaler = torch.amp.GradScaler(device)  # ONE scaler for the whole run, created before the loop
for step in range(60):
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(device, dtype=torch.float16):  # forward pass and loss only
        loss = torch.nn.functional.cross_entropy(model(x), y)
    scaler.scale(loss).backward()  # backward() outside autocast, on the scaled loss
    scaler.unscale_(optimizer)  # true gradients from here on: clip them
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    scaler.step(optimizer)  # skips the step if a gradient is inf/NaN
    scaler.update()  # adapts the scale for the next iteration
    if step % 15 == 0 or step == 59:
        print(f"step {step:2d}  loss {loss.item():.3f}  scale {scaler.get_scale():.0f}")
accuracy = (model(x).argmax(1) == y).float().mean().item()
print(f"train accuracy {accuracy:.2f}")
