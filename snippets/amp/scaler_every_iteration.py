import torch


def train(new_scaler_each_step):
    torch.manual_seed(0)
    model = torch.nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(8, 4)
    y = 100 * torch.randn(8, 1)  # large errors: at scale 65536 the float16 backward overflows
    scaler = torch.amp.GradScaler("cpu")
    skipped, losses = 0, []
    for step in range(30):
        if new_scaler_each_step:
            scaler = torch.amp.GradScaler("cpu")  # WRONG: forgets everything it learned
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(x), y)
        before = scaler.get_scale()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        skipped += scaler.get_scale() < before
        losses.append(loss.item())
    return skipped, scaler.get_scale(), losses[0], losses[-1]


for wrong in (True, False):
    skipped, scale, first, last = train(wrong)
    label = "new scaler every step" if wrong else "one scaler for the run"
    print(f"{label}: {skipped} of 30 steps skipped, last scale {scale:.0f}, loss {first:.0f} -> {last:.0f}")
