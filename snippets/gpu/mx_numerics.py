import torch
from torchao.prototype.mx_formats import ScaleCalculationMode
from torchao.prototype.mx_formats.mx_tensor import MXTensor
from torchao.prototype.mx_formats.nvfp4_tensor import NVFP4Tensor, per_tensor_amax_to_scale

E4M3 = torch.float8_e4m3fn
MAX = torch.finfo(E4M3).max  # 448


def float8(t, amax):
    """Scaled float8 cast and back; amax of the tensor (per tensor) or of each row (per row)."""
    scale = MAX / amax
    q = (t * scale).clamp(-MAX, MAX).to(E4M3)
    return q.float() / scale, 8 * q.numel() + 32 * amax.numel()  # the values, and the bits they take


def mx(t, elem_dtype):
    """An MX tensor: blocks of 32 along the last dimension, one power-of-two scale (E8M0) each."""
    q = MXTensor.to_mx(t, elem_dtype, block_size=32, scaling_mode=ScaleCalculationMode.RCEIL)
    bits = 8 * q.qdata.numel() + 8 * q.scale.numel()  # MXFP4 packs two values per byte
    return q.dequantize(torch.float32), bits


def nvfp4(t, per_tensor):
    """NVFP4: blocks of 16, an e4m3 scale each, and optionally one float32 scale for the tensor."""
    outer = per_tensor_amax_to_scale(t.abs().amax()) if per_tensor else None
    q = NVFP4Tensor.to_nvfp4(t, block_size=16, per_tensor_scale=outer)
    bits = 8 * q.qdata.numel() + 8 * q.scale.numel() + (32 if per_tensor else 0)
    return q.dequantize(torch.float32), bits


FORMATS = {
    "float8 e4m3fn, per tensor": lambda t: float8(t, t.abs().amax()),
    "float8 e4m3fn, per row": lambda t: float8(t, t.abs().amax(dim=1, keepdim=True)),
    "MXFP8 (e4m3fn, block 32)": lambda t: mx(t, torch.float8_e4m3fn),
    "MXFP4 (e2m1, block 32)": lambda t: mx(t, torch.float4_e2m1fn_x2),
    "NVFP4 (e2m1, block 16)": lambda t: nvfp4(t, per_tensor=True),
    "NVFP4 without tensor scale": lambda t: nvfp4(t, per_tensor=False),
}

torch.manual_seed(0)
normal = torch.randn(256, 1024)
outlier = normal.clone()
outlier[7, 100] = 1e5  # one value 10^5 times the others' standard deviation
others = torch.ones_like(normal, dtype=torch.bool)
others[7, 100] = False  # the error is measured on every value but the outlier


def error(t, approx):
    return ((approx - t)[others].norm() / t[others].norm()).item()


print(f"{'format':28} {'bits/value':>10} {'normal':>8} {'outlier':>8}")
for name, quantize in FORMATS.items():
    approx, bits = quantize(normal)
    approx_outlier, _ = quantize(outlier)
    print(f"{name:28} {bits / normal.numel():10.3f} {error(normal, approx):8.2%} {error(outlier, approx_outlier):8.2%}")
