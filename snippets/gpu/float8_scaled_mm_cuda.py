import torch

torch.manual_seed(0)
E4M3 = torch.float8_e4m3fn


def to_float8(t):
    scale = torch.finfo(E4M3).max / t.abs().max().float()
    return (t * scale).to(E4M3), scale.reciprocal()


x = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
weight = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
x8, x_inv = to_float8(x)
w8, w_inv = to_float8(weight)  # row-major (N, K): w8.t() is the column-major operand cuBLAS wants
out = torch._scaled_mm(x8, w8.t(), scale_a=x_inv, scale_b=w_inv, out_dtype=torch.bfloat16)
reference = x.float() @ weight.float().t()
error = ((out.float() - reference).norm() / reference.norm()).item()
print(f"{torch.cuda.get_device_name()}: float8 scaled matmul, relative error {error:.1%}")
