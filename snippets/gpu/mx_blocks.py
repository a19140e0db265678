import torch
from torchao.prototype.mx_formats import ScaleCalculationMode
from torchao.prototype.mx_formats.mx_tensor import MXTensor
from torchao.prototype.mx_formats.nvfp4_tensor import NVFP4Tensor, per_tensor_amax_to_scale

torch.manual_seed(0)
x = torch.randn(256, 1024)
RCEIL = ScaleCalculationMode.RCEIL  # the scale rule of torchao's MX inference config and training recipes

mxfp8 = MXTensor.to_mx(x, torch.float8_e4m3fn, block_size=32, scaling_mode=RCEIL)
mxfp4 = MXTensor.to_mx(x, torch.float4_e2m1fn_x2, block_size=32, scaling_mode=RCEIL)
outer = per_tensor_amax_to_scale(x.abs().amax())  # amax / (448 * 6), float32
nvfp4 = NVFP4Tensor.to_nvfp4(x, block_size=16, per_tensor_scale=outer)

for name, q in [("MXFP8", mxfp8), ("MXFP4", mxfp4), ("NVFP4", nvfp4)]:
    print(f"{name}: data {q.qdata.dtype} {tuple(q.qdata.shape)}, scales {q.scale.dtype} {tuple(q.scale.shape)}")

# The first block of row 0: its largest magnitude, and the scale each format gives it
for name, q, size, largest in [("MXFP8", mxfp8, 32, 448.0), ("MXFP4", mxfp4, 32, 6.0)]:
    amax = x[0, :size].abs().max().item()
    byte = q.scale.view(torch.uint8)[0, 0].item()  # E8M0: 8 exponent bits, no sign, no mantissa
    scale = q.scale[0, 0].float().item()
    print(f"{name} block 0: amax {amax:.4f}, scale byte {byte} = 2**({byte} - 127) = {scale}, "
          f"amax / scale = {amax / scale:.2f} <= {largest:g}")
amax = x[0, :16].abs().max().item()
block = nvfp4.scale[0, 0].float().item()  # an e4m3 value, not a power of two
scale = block * outer.item()
print(f"NVFP4 block 0: amax {amax:.4f}, e4m3 scale {block} x tensor scale {outer.item():.4e} = {scale:.4e}, "
      f"amax / scale = {amax / scale:.2f} <= 6")
