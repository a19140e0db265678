import torch

# A classic example: y = x^2 + 3x + 1, so dy/dx = 2x + 3 = 7 at x = 2.
x = torch.tensor([2.0], requires_grad=True)
y = x**2 + 3 * x + 1
y.backward()
print(x.grad, y.grad_fn.name())

# backward() needs a scalar (or an explicit gradient for each output).
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = w * 2
try:
    out.backward()
except RuntimeError as err:
    print(type(err).__name__, err)
out.sum().backward()
print(w.grad)

# Gradients ACCUMULATE: a second backward adds to .grad.
(w * 2).sum().backward()
print(w.grad)
w.grad = None  # what optimizer.zero_grad() does by default (set_to_none=True)
(w * 2).sum().backward()
print(w.grad)

# A graph is freed after backward; calling it twice fails unless retain_graph=True.
z = (w**2).sum()
z.backward()
try:
    z.backward()
except RuntimeError as err:
    print(type(err).__name__, str(err).split(".")[0])
