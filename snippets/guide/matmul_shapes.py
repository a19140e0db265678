import torch

torch.manual_seed(0)
z = torch.randn(2, 3)  # 2x3
y = torch.zeros(3, 4)  # 3x4

# A common mistake multiplies z by y transposed: (2x3) @ (4x3) cannot work.
try:
    torch.mm(z, y.t())
except RuntimeError as err:
    print(type(err).__name__, err)

print(torch.mm(z, y).shape)  # (2x3) @ (3x4) -> 2x4
print((z @ y).shape)  # the @ operator is the same for 2-D tensors

# torch.mm is strictly 2-D; torch.matmul / @ broadcast over batch dimensions.
batch = torch.randn(5, 2, 3)
print((batch @ y).shape)
try:
    torch.mm(batch, y)
except RuntimeError as err:
    print(type(err).__name__, err)
