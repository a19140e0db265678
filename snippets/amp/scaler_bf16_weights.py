import torch

# Trainable weights in bfloat16 (a model or adapters loaded in bfloat16) with a float16 recipe's scaler.
torch.manual_seed(0)
model = torch.nn.Linear(32, 1).to(torch.bfloat16)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")
x = torch.randn(8, 32, dtype=torch.bfloat16)
scaler.scale(model(x).float().pow(2).mean()).backward()
print("gradient dtype:", model.weight.grad.dtype)
scaler.step(optimizer)  # unscales first: the CPU's kernel takes bfloat16, the CUDA one does not
scaler.update()
print("CPU: the step ran, scale", scaler.get_scale())
