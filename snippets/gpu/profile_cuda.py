import torch
from torch.profiler import ProfilerActivity, profile

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4096, 4096), torch.nn.GELU(), torch.nn.Linear(4096, 4096)).cuda()
x = torch.randn(256, 4096, device="cuda")
with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
    model(x)  # warm-up outside the profile
    torch.cuda.synchronize()
    # acc_events=True changes nothing for one profiling cycle; without it torch 2.10 to 2.12 warn on every use.
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], acc_events=True) as prof:
        for _ in range(10):
            model(x)
        torch.cuda.synchronize()
# GPU kernels by their time on the GPU: the matmul kernels should dominate.
print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=8))
