import torch

from reference_impl.storage import float32_to_tf32

torch.manual_seed(0)
a = torch.randn(4096, 4096, device="cuda")
b = torch.randn(4096, 4096, device="cuda")
exact = a.double() @ b.double()


def relative_error(result):
    return ((result.double() - exact).abs().max() / exact.abs().max()).item()


torch.backends.cuda.matmul.fp32_precision = "ieee"
print(f"float32 matmul:         {relative_error(a @ b):.1e}")
torch.backends.cuda.matmul.fp32_precision = "tf32"
print(f"TF32 matmul:            {relative_error(a @ b):.1e}")
emulated = float32_to_tf32(a, rounding="nearest_even").double() @ float32_to_tf32(b, rounding="nearest_even").double()
print(f"inputs rounded to TF32: {relative_error(emulated):.1e}")
torch.backends.cuda.matmul.fp32_precision = "ieee"
