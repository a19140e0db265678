import warnings

import torch
from torch import nn

from reference_impl.quantization import (
    QuantizedWeight,
    choose_activation_qparams,
    dynamic_linear,
    dynamic_rnn_cell,
    quantize_weight,
)

torch.manual_seed(0)
linear, cell = nn.Linear(64, 32), nn.RNNCell(16, 32)
x, xc, h = torch.randn(8, 64), torch.randn(8, 16) * 2, torch.randn(8, 32)
with warnings.catch_warnings():
    # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page).
    warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    q = torch.ao.quantization.quantize_dynamic(nn.ModuleList([linear, cell]), {nn.Linear, nn.RNNCell}, dtype=torch.qint8)
    torch_weight = q[0]._packed_params._weight_bias()[0]
    with torch.no_grad():
        torch_linear, torch_cell = q[0](x), q[1](xc, h)

w = quantize_weight(linear.weight)  # int8 codes, symmetric, one scale
print("same int8 weight codes:", torch.equal(w.q, torch_weight.int_repr()))
act = choose_activation_qparams(x)  # per batch, uint8, 7-bit range on x86
print(f"activation scale {act.scale.item():.6f} zero point {act.zero_point.item()} codes {act.qmin}..{act.qmax}")
ours = dynamic_linear(x, w, linear.bias.detach())
print(f"Linear  reference = torch within 1e-5: {bool((ours - torch_linear).abs().max() < 1e-5)}"
      f"   max |reference - float| {(ours - linear(x)).abs().max().item():.1e}")

ours = dynamic_rnn_cell(xc, h, quantize_weight(cell.weight_ih), quantize_weight(cell.weight_hh),
                        cell.bias_ih.detach(), cell.bias_hh.detach())
print(f"RNNCell reference = torch within 1e-5: {bool((ours - torch_cell).abs().max() < 1e-5)}"
      f"   max |reference - float| {(ours - cell(xc, h)).abs().max().item():.1e}")
without = dynamic_linear(x, w, linear.bias.detach(), reduce_range=False)
print(f"with 8-bit activations instead: max |reference - torch| {(without - torch_linear).abs().max().item():.1e}")
