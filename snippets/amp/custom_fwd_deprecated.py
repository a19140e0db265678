import warnings

import torch

# The older spelling: torch.cuda.amp.custom_fwd / custom_bwd.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")

    class Legacy(torch.autograd.Function):
        @staticmethod
        @torch.cuda.amp.custom_fwd
        def forward(ctx, x):
            return x * 2

        @staticmethod
        @torch.cuda.amp.custom_bwd
        def backward(ctx, grad):
            return grad * 2


for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")

# The current spelling needs device_type, and it is a keyword argument.
try:
    torch.amp.custom_fwd(lambda ctx, x: x)
except TypeError as err:
    print(type(err).__name__, err)


class Current(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda")
    def forward(ctx, x):
        return x * 2

    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")
    def backward(ctx, grad):
        return grad * 2


x = torch.ones(3, requires_grad=True)
Current.apply(x).sum().backward()
print("runs on CPU tensors too (autocast for 'cuda' is simply off):", x.grad.tolist())
