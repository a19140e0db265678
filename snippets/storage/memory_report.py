import torch
from torch import nn

from reference_impl.storage import model_footprint

model = nn.Sequential(nn.Linear(512, 1024), nn.BatchNorm1d(1024), nn.ReLU(), nn.Linear(1024, 10))
report = model_footprint(model)
print(report.format_table())
for dtype in (torch.float32, torch.float16, torch.bfloat16):
    print(f"as {str(dtype):15} {report.size_at(dtype):>9,} bytes")
