"""What became of older tutorials' DataParallel and torch.distributed.pipeline code, on this CPU machine."""

import torch
from torch import nn

try:
    import torch.distributed.pipeline  # noqa: F401  (removed; older tutorials still use it)
except ModuleNotFoundError as err:
    print(type(err).__name__ + ":", err)

from torch.distributed.pipelining import ScheduleGPipe, SplitPoint, pipeline  # the replacement

print("torch.distributed.pipelining:", pipeline.__name__, SplitPoint.__name__, ScheduleGPipe.__name__)

model = nn.DataParallel(nn.Linear(8, 2))  # without GPUs DataParallel just calls the module
print("DataParallel device_ids without a GPU:", model.device_ids)

batch = (torch.randn(4, 8), torch.tensor([0, 1, 0, 1]))  # what a DataLoader yields: (inputs, targets)
try:
    model(batch)  # a common mistake: passing the whole batch
except TypeError as err:
    print(type(err).__name__ + ":", err)
inputs, targets = batch
print("unpacked:", tuple(model(inputs).shape))
