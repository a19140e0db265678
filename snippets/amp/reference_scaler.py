import copy

import torch

from reference_impl.amp import ReferenceGradScaler

torch.manual_seed(0)
model_a = torch.nn.Linear(6, 1)
model_b = copy.deepcopy(model_a)
scalers = {
    "torch": (torch.amp.GradScaler("cpu", init_scale=256.0, growth_interval=2), model_a),
    "reference": (ReferenceGradScaler("cpu", init_scale=256.0, growth_interval=2), model_b),
}
optimizers = {name: torch.optim.SGD(m.parameters(), lr=0.1) for name, (_, m) in scalers.items()}
inject = {2: float("inf"), 3: float("nan"), 6: float("inf")}

print("step  injected  torch scale  reference scale  reference stepped")
for step in range(8):
    x, y = torch.randn(4, 6), torch.randn(4, 1)
    row = []
    for name, (scaler, model) in scalers.items():
        optimizers[name].zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = torch.nn.functional.mse_loss(model(x), y)
        scaler.scale(loss).backward()
        if step in inject:
            model.weight.grad[0, 0] = inject[step]
        stepped = scaler.step(optimizers[name])  # the reference returns whether it stepped
        scaler.update()
        row.append(scaler.get_scale())
    print(f"{step:4}  {str(inject.get(step, '')):8}  {row[0]:11.0f}  {row[1]:15.0f}  {stepped}")
print("same weights:", torch.equal(model_a.weight, model_b.weight))
