"""CPUOffloadOptimizer on a CUDA GPU: AdamW's states (and optionally the gradients) kept in CPU memory."""

import torch
from torch import nn
from torchao.optim import CPUOffloadOptimizer


def peak_mib(make_optimizer):
    """Peak GPU memory of three training steps of a 4096-wide MLP, in MiB."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 4096)).cuda()
    opt = make_optimizer(model.parameters())
    x = torch.randn(256, 4096, device="cuda")
    torch.cuda.reset_peak_memory_stats()
    for _ in range(3):
        model(x).square().mean().backward()
        opt.step()
        opt.zero_grad()
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated() / 2**20


optimizers = {
    "AdamW on the GPU": lambda params: torch.optim.AdamW(params, fused=True),
    "states offloaded": lambda params: CPUOffloadOptimizer(params, torch.optim.AdamW, fused=True),
    "states and gradients": lambda params: CPUOffloadOptimizer(
        params, torch.optim.AdamW, offload_gradients=True, fused=True
    ),
}
for name, make_optimizer in optimizers.items():
    print(f"{name:20} peak {peak_mib(make_optimizer):7.1f} MiB")
