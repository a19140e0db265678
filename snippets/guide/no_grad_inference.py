import torch

w = torch.ones(3, requires_grad=True)

with torch.no_grad():
    a = w * 2
print("no_grad:", a.requires_grad, a.grad_fn)

with torch.inference_mode():
    b = w * 2
print("inference_mode:", b.requires_grad, b.is_inference())

# A no_grad result is an ordinary tensor and can enter autograd later;
# an inference tensor cannot be saved for backward.
(a * w).sum().backward()
print("no_grad result used in a graph:", w.grad.tolist())
try:
    (b * w).sum().backward()
except RuntimeError as err:
    print(type(err).__name__, err)

# detach(): same storage, cut out of the graph.
c = (w * 3).detach()
print("detach:", c.requires_grad, c.grad_fn)

# eval() is not no_grad(): it changes layers, not gradient tracking.
model = torch.nn.Linear(3, 1).eval()
print("eval() still records a graph:", model(torch.ones(1, 3)).requires_grad)
