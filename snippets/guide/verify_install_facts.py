"""The deterministic part of an installation check: fails loudly if something is off."""

import sys

import torch

major, minor = (int(p) for p in torch.__version__.split("+")[0].split(".")[:2])
assert sys.version_info >= (3, 10), "PyTorch 2.13 needs Python 3.10 or newer"
assert (major, minor) >= (2, 11), "this guide was tested with torch 2.11 and newer"
x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
print("matmul:", (x @ x.T).tolist())
w = x.clone().requires_grad_()
print("autograd:", torch.autograd.grad((w**2).sum(), w)[0].tolist())
print("bfloat16 matmul on CPU:", (torch.ones(2, 2, dtype=torch.bfloat16) @ torch.ones(2, 2, dtype=torch.bfloat16)).tolist())
