import torch
import torch.nn.functional as F

torch.manual_seed(0)
E4M3 = torch.float8_e4m3fn
E4M3_MAX = torch.finfo(E4M3).max  # 448


def to_float8(t):
    """Per-tensor scaling: map the largest magnitude onto 448, then cast."""
    scale = E4M3_MAX / t.abs().max().float()
    return (t * scale).to(E4M3), scale.reciprocal()  # float8 data, and the factor that undoes the scaling


def relative_error(approx, exact):
    return ((approx.double() - exact.double()).norm() / exact.double().norm()).item()


large = torch.randn(64, 256) * 1000  # beyond 448: a plain cast clamps them
small = torch.randn(64, 256) * 1e-3  # below 2**-6 = 0.0156: a plain cast has few bits left, or none
for name, t in [("large values", large), ("small values", small)]:
    plain = t.to(E4M3).float()
    data, inverse_scale = to_float8(t)
    print(f"{name}: plain cast error {relative_error(plain, t):6.1%}, "
          f"scaled cast error {relative_error(data.float() * inverse_scale, t):6.1%}")

# A scaled matmul: float8 inputs, their inverse scales, a float32 (or bfloat16) result.
x = torch.randn(64, 256)
weight = torch.randn(128, 256) * 0.05
x8, x_inv = to_float8(x)
w8, w_inv = to_float8(weight)
out = F.scaled_mm(x8, w8.t(), x_inv, F.ScalingType.TensorWise, w_inv, F.ScalingType.TensorWise,
                  output_dtype=torch.float32)
emulated = (x8.float() @ w8.float().t()) * x_inv * w_inv
print(f"F.scaled_mm on {out.device.type}: error vs float32 matmul {relative_error(out, x @ weight.t()):.1%}, "
      f"equals the emulation: {torch.allclose(out, emulated, rtol=1e-5, atol=1e-5)}")

# The older, private form of the same product: much existing code calls it. Its kernel may sum
# in another order (float32 rounding), so compare within a tolerance, not bit for bit.
older = torch._scaled_mm(x8, w8.t(), scale_a=x_inv, scale_b=w_inv, out_dtype=torch.float32)
print(f"torch._scaled_mm gives the same result within 1e-5: {torch.allclose(older, out, rtol=1e-5, atol=1e-5)}")
