"""Three ways a memory saving does not happen, with the text PyTorch and torchao print."""

import warnings

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint
from torchao.optim import AdamW8bit, CPUOffloadOptimizer

warnings.simplefilter("error")
warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)

# 1. CPUOffloadOptimizer moves optimizer states from a CUDA or XPU GPU to the CPU: on a machine
#    without one it refuses, whatever the parameters.
try:
    CPUOffloadOptimizer(nn.Linear(64, 64).parameters(), torch.optim.AdamW)
except AssertionError as error:
    print("1. AssertionError:", error)

# 2. A low-bit optimizer quantizes only tensors of at least 4,096 values that split into whole blocks
#    (256 values for 8-bit): a 100×100 weight keeps float32 states, without a word.
w = nn.Parameter(torch.randn(100, 100))
opt = AdamW8bit([w])
w.square().sum().backward()
opt.step()
print("2. AdamW8bit state of a 100x100 weight:", type(opt.state[w]["exp_avg"]).__name__, opt.state[w]["exp_avg"].dtype)

# 3. checkpoint() without use_reentrant warns (an error here: this script turns warnings into errors).
x = torch.randn(4, 8, requires_grad=True)
try:
    checkpoint(torch.sin, x)
except UserWarning as warning:
    print("3. UserWarning:", warning)
