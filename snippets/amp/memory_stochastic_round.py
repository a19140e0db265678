"""bfloat16 weights lose small updates to rounding; stochastic rounding keeps them on average."""

import warnings

import torch
from torch import nn

# _AdamW: torchao's copy of torch.optim.AdamW, with bf16_stochastic_round
from torchao.optim import _AdamW

warnings.simplefilter("error")
# torchao compiles its step with torch.compile, whose import uses a deprecated TorchScript API.
warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)

torch.manual_seed(0)
target = torch.full((4096,), 1.5)
runs = {
    "float32": (torch.float32, torch.optim.AdamW, {}),
    "bfloat16": (torch.bfloat16, torch.optim.AdamW, {}),
    "bfloat16, stochastic": (torch.bfloat16, _AdamW, {"bf16_stochastic_round": True}),
}
print("mean weight after 100 AdamW steps")
for name, (dtype, optimizer_class, options) in runs.items():
    w = nn.Parameter(torch.ones(4096, dtype=dtype))  # every weight starts at 1.0 and should move to 1.5
    opt = optimizer_class([w], lr=1e-3, weight_decay=0.0, **options)
    for _ in range(100):  # each AdamW step moves a weight by about lr = 0.001
        loss = (w.float() - target).square().mean()
        loss.backward()
        opt.step()
        opt.zero_grad()
    print(f"{name:21} {w.float().mean().item():.3f}")
print("bfloat16 spacing above 1.0:", torch.finfo(torch.bfloat16).eps)
