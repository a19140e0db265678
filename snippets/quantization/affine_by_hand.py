import warnings

import torch

from reference_impl.quantization import choose_qparams, dequantize_per_tensor, quantize_per_tensor

x = torch.tensor([-1.0, -0.03, 0.0, 0.5, 1.234, 3.0])

# Affine: the range [-1, 3] is mapped onto the uint8 codes 0..255.
p = choose_qparams(x.min(), x.max(), torch.uint8)
q = quantize_per_tensor(x, p.scale, p.zero_point, torch.uint8)
back = dequantize_per_tensor(q, p.scale, p.zero_point)
print(f"affine    uint8 scale={p.scale.item():.6f} zero_point={p.zero_point.item()}")
print("  codes     ", q.tolist())
print("  back      ", [round(v, 4) for v in back.tolist()])
print("  max error ", round((back - x).abs().max().item(), 5), "<= scale/2 =", round(p.scale.item() / 2, 5))

# Symmetric: [-3, 3] (the larger side mirrored) onto int8 codes, zero point 0.
s = choose_qparams(x.min(), x.max(), torch.int8, symmetric=True)
qs = quantize_per_tensor(x, s.scale, s.zero_point, torch.int8)
print(f"symmetric int8 scale={s.scale.item():.6f} zero_point={s.zero_point.item()}")
print("  codes     ", qs.tolist())

# Outside the range, values are clamped to the last code: the error is no longer bounded.
print("  4.0 ->", quantize_per_tensor(torch.tensor([4.0]), p.scale, p.zero_point, torch.uint8).item(),
      "-> back", round(dequantize_per_tensor(torch.tensor([255]), p.scale, p.zero_point).item(), 4))

# PyTorch's own kernel gives the same codes.
with warnings.catch_warnings():
    # torch 2.13 deprecates the quantized dtypes (see the overview page).
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    qt = torch.quantize_per_tensor(x, p.scale.item(), p.zero_point.item(), torch.quint8)
print("same codes as torch.quantize_per_tensor:", torch.equal(qt.int_repr(), q))
