import torch

# The product in the forward of torchao's float8 inference config: torch._scaled_mm on float8 operands.
# The activation is cast from a tensor that needs a gradient, as in training.
torch.manual_seed(0)
x = torch.randn(16, 32, dtype=torch.bfloat16, requires_grad=True)
weight = torch.randn(64, 32, dtype=torch.bfloat16)
one = torch.tensor(1.0)
out = torch._scaled_mm(x.to(torch.float8_e4m3fn), weight.to(torch.float8_e4m3fn).t(),
                       scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
print("forward:", out.dtype, tuple(out.shape))
try:
    out.float().sum().backward()
except RuntimeError as err:
    print(f"backward: {type(err).__name__}: {err}")
