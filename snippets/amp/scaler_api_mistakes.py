import torch
import torch.amp

model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")
with torch.autocast("cpu", dtype=torch.float16):
    loss = model(torch.randn(8, 4)).float().pow(2).mean()

try:
    torch.amp.backward(loss)  # a common mistake: amp.backward(loss)
except AttributeError as err:
    print(type(err).__name__, err)

scaler.scale(loss).backward()
try:
    scaler.unscale(optimizer)  # a common misspelling
except AttributeError as err:
    print(type(err).__name__, err)
scaler.unscale_(optimizer)  # the real method ends with an underscore: it works in place
try:
    scaler.unscale_(optimizer)  # once per optimizer per iteration
except RuntimeError as err:
    print(type(err).__name__, err)
scaler.step(optimizer)
scaler.update()

half_model = torch.nn.Linear(4, 1).half()  # pure float16 weights instead of autocast
half_opt = torch.optim.SGD(half_model.parameters(), lr=0.1)
scaler.scale(half_model(torch.randn(8, 4).half()).float().mean()).backward()
try:
    scaler.step(half_opt)
except ValueError as err:
    print(type(err).__name__, err)
