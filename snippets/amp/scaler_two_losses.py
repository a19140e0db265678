import torch

torch.manual_seed(0)
encoder = torch.nn.Linear(10, 16)
head_a, head_b = torch.nn.Linear(16, 1), torch.nn.Linear(16, 3)
opt_encoder = torch.optim.SGD(encoder.parameters(), lr=0.1)
opt_heads = torch.optim.SGD([*head_a.parameters(), *head_b.parameters()], lr=0.1)
x, target_a, target_b = torch.randn(32, 10), torch.randn(32, 1), torch.randint(0, 3, (32,))

scaler = torch.amp.GradScaler("cpu")  # one scaler serves every loss and every optimizer
for step in range(3):
    opt_encoder.zero_grad()
    opt_heads.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        features = torch.relu(encoder(x))
        loss_a = torch.nn.functional.mse_loss(head_a(features), target_a)
        loss_b = torch.nn.functional.cross_entropy(head_b(features), target_b)
    # Either scale each loss (retain_graph for the shared part) or scale their sum once.
    scaler.scale(loss_a).backward(retain_graph=True)
    scaler.scale(loss_b).backward()
    scaler.unscale_(opt_encoder)  # clip only the encoder's gradients
    torch.nn.utils.clip_grad_norm_(encoder.parameters(), max_norm=1.0)
    scaler.step(opt_encoder)  # each optimizer is checked for inf/NaN on its own
    scaler.step(opt_heads)
    scaler.update()  # once per iteration, after every step()
    print(f"step {step}: loss_a {loss_a.item():.3f}  loss_b {loss_b.item():.3f}  scale {scaler.get_scale():.0f}")
