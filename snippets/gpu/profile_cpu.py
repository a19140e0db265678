import torch
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(512, 2048), torch.nn.GELU(), torch.nn.Linear(2048, 512))
x = torch.randn(64, 512)
with torch.no_grad():
    model(x)  # warm-up outside the profile
    # On a GPU add ProfilerActivity.CUDA and sort by "cuda_time_total".
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(10):
            model(x)
print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=6))
