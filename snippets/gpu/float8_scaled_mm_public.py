import torch
import torch.nn.functional as F

E4M3 = torch.float8_e4m3fn
MAX = torch.finfo(E4M3).max


def rowwise_float8(t):
    """One scale per row: float8 data and the inverse scales (float32, shape rows x 1)."""
    amax = t.abs().amax(dim=1, keepdim=True).clamp(min=1e-12)
    scale = MAX / amax
    return (t * scale).clamp(-MAX, MAX).to(E4M3), (1 / scale).float()


torch.manual_seed(0)
x = torch.randn(64, 256)
x[0] *= 100  # one outlier row: with rowwise scales it costs the other rows nothing
weight = torch.randn(128, 256) * 0.05
x8, x_inv = rowwise_float8(x)  # scales (64, 1)
w8, w_inv = rowwise_float8(weight)  # scales (128, 1), one per output column

out = F.scaled_mm(
    x8, w8.t(),  # the second operand column-major, as for torch._scaled_mm
    x_inv, F.ScalingType.RowWise,
    w_inv.t(), F.ScalingType.RowWise,  # (1, 128)
    output_dtype=torch.float32,
)
exact = x @ weight.t()
error = ((out - exact).norm() / exact.norm()).item()
print(f"F.scaled_mm on {out.device.type}, rowwise scales: {tuple(out.shape)} {out.dtype}, error under 5 %: {error < 0.05}")
print("scaling types:", ", ".join(F.ScalingType.__members__))
