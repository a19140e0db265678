import numpy as np
import torch


def shares(a, b):
    """True when two tensors (or a tensor and an array) use the same block of memory."""
    base_a = a.untyped_storage().data_ptr() if isinstance(a, torch.Tensor) else a.__array_interface__["data"][0]
    base_b = b.untyped_storage().data_ptr() if isinstance(b, torch.Tensor) else b.__array_interface__["data"][0]
    return base_a == base_b


x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
cases = {
    "x[1]": x[1],
    "x[:, 1]": x[:, 1],
    "x.view(4, 3)": x.view(4, 3),
    "x.t()": x.t(),
    "x.t().contiguous()": x.t().contiguous(),  # a transpose is not contiguous: contiguous() copies
    "x.contiguous()": x.contiguous(),  # already contiguous: returns x itself
    "x.reshape(12)": x.reshape(12),  # a view when possible ...
    "x.t().reshape(12)": x.t().reshape(12),  # ... a copy when not
    "x.to(torch.float32)": x.to(torch.float32),  # nothing changes: returns x itself
    "x.to('cpu')": x.to("cpu"),
    "x.to(torch.float16)": x.to(torch.float16),  # a dtype change always copies
    "x.clone()": x.clone(),
    "x.numpy()": x.numpy(),  # a NumPy array on the same memory
}
for label, y in cases.items():
    same_object = y is x
    print(f"{label:22} shares memory: {str(shares(x, y)):5}  is x: {same_object}")

a = np.zeros(3, dtype=np.float32)
print("torch.from_numpy(a) shares:", shares(torch.from_numpy(a), a), " torch.tensor(a) shares:", shares(torch.tensor(a), a))
t = torch.from_numpy(a)
t += 1  # in place: the NumPy array sees it
print(a)
