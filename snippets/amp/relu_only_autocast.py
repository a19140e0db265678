import torch

torch.manual_seed(0)
x = torch.randn(4, 8)

# A common mistake: an autocast region around ReLU alone.
relu = torch.nn.ReLU()
with torch.autocast("cpu", dtype=torch.bfloat16):
    y = relu(x)
print("ReLU alone under autocast:", y.dtype)  # ReLU keeps its input dtype: nothing happened

# Autocast pays off where the matmuls are: put the whole forward pass (and the loss) inside.
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1))
with torch.autocast("cpu", dtype=torch.bfloat16):
    hidden = model[1](model[0](x))
    out = model(x)
    loss = torch.nn.functional.mse_loss(out, torch.zeros(4, 1))
print("Linear -> ReLU:", hidden.dtype, "| output:", out.dtype, "| loss:", loss.dtype)
