import numpy as np
import torch

arr = np.zeros(3, dtype=np.float32)
t = torch.from_numpy(arr)  # shares memory with arr
arr[0] = 1.0
t[1] = 2.0
print(arr, t)

back = t.numpy()  # shares memory too (CPU tensors only)
back[2] = 3.0
print(t)

copy = torch.tensor(arr)  # torch.tensor always copies
arr[0] = -1.0
print(copy[0].item(), t[0].item())

w = torch.ones(2, requires_grad=True)
try:
    w.numpy()
except RuntimeError as err:
    print(type(err).__name__, err)
print(w.detach().numpy())
