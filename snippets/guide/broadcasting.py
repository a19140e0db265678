import torch

x = torch.tensor([1, 2, 3, 4, 5])
print(x + 10)  # a scalar is broadcast to every element

m = torch.arange(6).reshape(2, 3)  # 2x3
row = torch.tensor([10, 20, 30])  # 3   -> treated as 1x3
col = torch.tensor([[100], [200]])  # 2x1
print(m + row)
print(m + col)

# Shapes are compared from the right; in each pair the sizes must be equal, or one of them 1.
try:
    m + torch.tensor([1, 2])
except RuntimeError as err:
    print(type(err).__name__, err)

# A silent trap: (3,) + (3, 1) broadcasts to 3x3 instead of raising.
pred = torch.tensor([1.0, 2.0, 3.0])
target = torch.tensor([[1.0], [2.0], [3.0]])
print((pred - target).shape, "<- 9 differences, not 3")
