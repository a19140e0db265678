import torch

torch.manual_seed(0)
model = torch.nn.Linear(10, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 10), torch.randn(64, 1)
accumulate = 4  # 4 micro-batches of 16 make one effective batch of 64

scaler = torch.amp.GradScaler("cpu")
for step in range(3):
    optimizer.zero_grad()
    for micro_x, micro_y in zip(x.chunk(accumulate), y.chunk(accumulate)):
        with torch.autocast("cpu", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(micro_x), micro_y) / accumulate
        scaler.scale(loss).backward()  # scaled gradients add up in .grad
    # Unscale, step and update once per *effective* batch, never per micro-batch.
    scaler.step(optimizer)
    scaler.update()
    with torch.no_grad():
        full_loss = torch.nn.functional.mse_loss(model(x), y).item()
    print(f"step {step}: loss on the whole batch {full_loss:.4f}")
