import warnings

import torch

from reference_impl.quantization import (
    choose_qparams,
    dequantize_per_tensor,
    int32_accumulate,
    quantize_per_tensor,
    quantize_weight,
    requantized_linear,
)

x = torch.tensor([[0.5, -0.25, 1.0]])  # one input row, 3 features
weight = torch.tensor([[0.2, -0.4, 0.1], [-0.3, 0.05, 0.6]])  # 2 outputs
bias = torch.tensor([0.05, -0.1])
print("float result     ", [[round(v, 6) for v in row] for row in (x @ weight.T + bias).tolist()])

xp = choose_qparams(-1.0, 1.0, torch.uint8)  # input range from calibration
x_q = quantize_per_tensor(x, xp.scale, xp.zero_point, torch.uint8)
w = quantize_weight(weight)  # int8, symmetric
print(f"1. x codes (uint8) {x_q.tolist()}  scale {xp.scale.item():.6f} zero point {xp.zero_point.item()}")
print(f"   w codes (int8)  {w.q.tolist()}  scale {w.scale.item():.6f}")

acc = int32_accumulate(x_q, xp.zero_point, w.q, w.zero_point)
print("2. int32 sum of (x_q - x_zp) * w_q   ", acc.tolist())
bias_scale = xp.scale.double() * w.scale.double()
bias_q = torch.round(bias.double() / bias_scale).to(torch.int32)
print(f"3. bias as int32 codes (scale {bias_scale.item():.3e})", bias_q.tolist())

yp = choose_qparams(-1.0, 1.0, torch.uint8)  # output range from calibration
y_q, acc_with_bias = requantized_linear(x_q, xp, w, bias, yp)
multiplier = (bias_scale / yp.scale.double()).item()
print(f"4. requantize: round(acc * {multiplier:.6f}) + {yp.zero_point.item()} ->", y_q.tolist())
print("5. dequantized output", [round(v, 4) for v in dequantize_per_tensor(y_q, yp.scale, yp.zero_point)[0].tolist()])

# torch's quantized Linear (x86 engine) computes the same codes.
with warnings.catch_warnings():
    # torch 2.13 deprecates the quantized dtypes and torch.ao (see the overview page).
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    linear = torch.ao.nn.quantized.Linear(3, 2, dtype=torch.qint8)
    linear.set_weight_bias(torch.quantize_per_tensor(weight, w.scale.item(), 0, torch.qint8), bias)
    linear.scale, linear.zero_point = yp.scale.item(), yp.zero_point.item()
    out = linear(torch.quantize_per_tensor(x, xp.scale.item(), xp.zero_point.item(), torch.quint8))
print("torch.ao.nn.quantized.Linear codes   ", out.int_repr().tolist())
