import torch


def state():
    on = torch.is_autocast_enabled("cpu")
    return f"autocast {'on, ' + str(torch.get_autocast_dtype('cpu')) if on else 'off'}"


class MatMul(torch.autograd.Function):
    """out = a @ b, with a hand-written backward."""

    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")  # remember the autocast state of forward ...
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        out = a @ b
        print(f"forward:  {a.dtype} @ {b.dtype} -> {out.dtype}  ({state()})")
        return out

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")  # ... and run backward under that same state
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_a, grad_b = grad @ b.T, a.T @ grad
        print(f"backward: grad {grad.dtype} -> {grad_a.dtype}, {grad_b.dtype}  ({state()})")
        return grad_a, grad_b


class NoDecorators(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        print(f"backward without custom_bwd: ({state()})")
        return grad @ b.T, a.T @ grad


torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, 2, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    out = MatMul.apply(a, b)
out.float().sum().backward()  # backward() runs outside the autocast block
print("leaf gradients:", a.grad.dtype, b.grad.dtype)

with torch.autocast("cpu", dtype=torch.bfloat16):
    out = NoDecorators.apply(a, b)
try:
    out.float().sum().backward()
except RuntimeError as err:
    print(type(err).__name__, err)
