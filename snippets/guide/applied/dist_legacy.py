"""What became of old DataParallel and torch.distributed.pipeline code (same output with or without a GPU)."""

import torch
from torch import nn

try:
    import torch.distributed.pipeline  # noqa: F401  (removed; older tutorials still import it)
except ModuleNotFoundError as err:
    print(type(err).__name__ + ":", err)

from torch.distributed.pipelining import ScheduleGPipe, SplitPoint, pipeline  # the replacement

print("torch.distributed.pipelining:", pipeline.__name__, SplitPoint.__name__, ScheduleGPipe.__name__)

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.DataParallel(nn.Linear(8, 2).to(device))  # without GPUs DataParallel just calls the module
print("DataParallel wraps:", type(model.module).__name__)

batch = (torch.randn(4, 8), torch.tensor([0, 1, 0, 1]))  # what a DataLoader yields: (inputs, targets)
try:
    model(batch)  # a common mistake: passing the whole (inputs, targets) batch
except TypeError as err:
    print(type(err).__name__ + ":", err)
inputs, targets = batch
print("unpacked:", tuple(model(inputs.to(device)).shape))
