import torch

inputs = torch.randn(10, 20, requires_grad=True)
outputs = torch.relu(inputs)

# A common mistake calls custom_bwd like a function that computes gradients:
try:
    torch.amp.custom_bwd(inputs, outputs, args=(inputs,))
except TypeError as err:
    print(type(err).__name__, err)

# custom_bwd wraps whatever it is given as if it were a backward() method ...
wrapped = torch.amp.custom_bwd(inputs, device_type="cpu")
print(type(wrapped).__name__, callable(wrapped))
try:
    wrapped(None, outputs)  # ... which fails only when it is called, wanting a ctx from custom_fwd
except AttributeError as err:
    print(type(err).__name__, err)

# Gradients of ordinary code need no decorator at all: autograd computes them.
(grad,) = torch.autograd.grad(outputs.sum(), inputs)
print(grad.shape, grad.dtype)
