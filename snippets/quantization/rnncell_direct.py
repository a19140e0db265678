import warnings

import torch
from torch.ao.nn.quantized.dynamic import RNNCell

torch.manual_seed(0)
with warnings.catch_warnings():
    # torch 2.13 deprecates the quantized dtypes its weights use (see the overview page).
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    cell = RNNCell(10, 20)  # input_size=10, hidden_size=20, nonlinearity="tanh"
    weights = cell._weight_bias()["weight"]
print(cell)

x = torch.randn(3, 10)  # (batch, input_size)
h = cell(x)  # hidden state starts at zeros
print("2-D input ->", tuple(h.shape), h.dtype)

try:
    cell(torch.randn(10))  # one sample without a batch dimension
except IndexError as err:
    print(type(err).__name__, err)
print("unsqueeze(0) first ->", tuple(cell(torch.randn(10).unsqueeze(0)).shape))

relu_cell = RNNCell(10, 20, nonlinearity="relu")
print(relu_cell, "outputs >= 0:", bool((relu_cell(x) >= 0).all()))

# What a freshly built cell holds: random normal weights rounded to integers (scale 1.0).
w_ih = weights["weight_ih"]
print("weight_ih:", w_ih.dtype, tuple(w_ih.shape), "scale", w_ih.q_scale(), "zero point", w_ih.q_zero_point())
print("  its int8 codes run from", w_ih.int_repr().min().item(), "to", w_ih.int_repr().max().item())
