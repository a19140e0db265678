import warnings

import torch
from torch import nn

from reference_impl.quantization import NothingQuantizedError, compare_models


def quantize(model):
    with warnings.catch_warnings():
        # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page).
        warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
        return torch.ao.quantization.quantize_dynamic(model, {nn.RNNCell}, dtype=torch.qint8)


cell = nn.RNNCell(10, 20).eval()
result = quantize(cell)  # a bare module: no error, no warning about it
print("bare cell    ->", type(result).__module__ + "." + type(result).__name__)

wrapped = quantize(nn.Sequential(cell))  # the same cell as a child module
print("wrapped cell ->", type(wrapped[0]).__module__ + "." + type(wrapped[0]).__name__)

# Detect it: check the type, or let the comparison tool refuse an unquantized model.
from torch.ao.nn.quantized.dynamic import RNNCell as QuantizedRNNCell

print("quantized?", isinstance(result, QuantizedRNNCell), isinstance(wrapped[0], QuantizedRNNCell))
try:
    compare_models(cell, result, torch.randn(2, 10))
except NothingQuantizedError as err:
    print(type(err).__name__, err)
