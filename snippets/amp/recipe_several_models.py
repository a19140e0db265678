import torch

torch.manual_seed(0)
model0, model1 = torch.nn.Linear(8, 4), torch.nn.Linear(8, 4)
optimizer0 = torch.optim.SGD(model0.parameters(), lr=0.1)
optimizer1 = torch.optim.Adam(model1.parameters(), lr=0.01)
x, target = torch.randn(32, 8), torch.randn(32, 4)

scaler = torch.amp.GradScaler("cpu")  # one scaler for both models, losses and optimizers
for step in range(6):
    optimizer0.zero_grad()
    optimizer1.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        output0, output1 = model0(x), model1(x)
        loss0 = torch.nn.functional.mse_loss(2 * output0 + 3 * output1, target)
        loss1 = torch.nn.functional.mse_loss(3 * output0 - 5 * output1, target)
    # One scale() per loss. Both losses reach both models: keep the graph for the second backward.
    scaler.scale(loss0).backward(retain_graph=True)
    scaler.scale(loss1).backward()
    before = [model0.weight.clone(), model1.weight.clone()]
    for model, optimizer in ((model0, optimizer0), (model1, optimizer1)):
        scaler.unscale_(optimizer)  # once per optimizer, after every backward(), before clipping
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(optimizer)  # each optimizer is checked for inf/NaN on its own
    scaler.update()  # once, after the last step()
    moved = [not torch.equal(b, m.weight) for b, m in zip(before, (model0, model1))]
    print(f"step {step}: model0 stepped {moved[0]}, model1 stepped {moved[1]}, next scale {scaler.get_scale():.0f}")
