import torch

a = torch.ones(3)
b = a.add(1)  # out-of-place: new tensor
a.add_(1)  # in-place: trailing underscore, modifies a
print(a.tolist(), b.tolist())

# In-place on a leaf that requires grad is refused ...
w = torch.ones(3, requires_grad=True)
try:
    w.add_(1)
except RuntimeError as err:
    print(type(err).__name__, err)

# ... and so is changing a value that autograd saved for backward.
x = torch.ones(3, requires_grad=True)
y = x.sigmoid()  # sigmoid's backward needs its output
y.mul_(2)
try:
    y.sum().backward()
except RuntimeError as err:
    # the message goes on with the saved tensor's producer, whose name differs between torch versions
    print(type(err).__name__, str(err).split(": [torch")[0])

# Parameter updates are in-place on purpose, outside autograd:
with torch.no_grad():
    w.sub_(0.1)
print([round(v, 4) for v in w.tolist()])
