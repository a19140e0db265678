import torch

x = torch.arange(12)
v = x.view(3, 4)  # a view: same storage, new shape
v[0, 0] = 100
print(x[0].item(), v.data_ptr() == x.data_ptr())

t = v.transpose(0, 1)  # 4x3 view with swapped strides: not contiguous
print(t.shape, t.stride(), t.is_contiguous())
try:
    t.view(12)
except RuntimeError as err:
    print(type(err).__name__, err)
r = t.reshape(12)  # reshape copies when it has to
print(r.data_ptr() == x.data_ptr(), t.contiguous().view(12).tolist()[:4])

s = torch.zeros(1, 3, 1, 2)
print(s.squeeze().shape, s.squeeze(0).shape, s.unsqueeze(-1).shape)
print(x.view(-1, 6).shape)  # -1: inferred from the other dimensions
