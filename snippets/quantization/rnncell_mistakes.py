import warnings

import torch
import torch.ao.quantization as tq
from torch import nn

# 1. The quantized modules are not inside torch.ao.quantization.
try:
    tq.quantized.dynamic.RNNCell(input_size=10, hidden_size=20)
except AttributeError as err:
    print(type(err).__name__, err)
cls = torch.ao.nn.quantized.dynamic.RNNCell
print("it lives in", cls.__module__.replace(".modules.rnn", ""), "as", cls.__name__)

# 2. prepare() has no qconfig argument (the qconfig is an attribute of the model).
with warnings.catch_warnings():
    # torch 2.13 deprecates torch.ao.quantization (see the overview page).
    warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
    try:
        tq.prepare(nn.Sequential(nn.RNNCell(10, 20)), qconfig={})
    except TypeError as err:
        print(type(err).__name__, err)
