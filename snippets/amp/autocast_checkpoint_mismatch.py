"""A checkpointed function whose autocast switch changes between forward and backward."""

import torch
from torch import nn
from torch.utils.checkpoint import CheckpointError, checkpoint


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(64, 64)
        self.use_amp = True  # a flag the training loop may flip

    def forward(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=self.use_amp):
            return self.linear(x).relu()


def weight_grad(use_reentrant, flip):
    torch.manual_seed(0)
    block = Block()
    x = torch.randn(16, 64, requires_grad=True)
    if use_reentrant is None:
        y = block(x)
    else:
        y = checkpoint(block, x, use_reentrant=use_reentrant)
    if flip:
        block.use_amp = False  # e.g. "turn AMP off" after the forward pass
    y.float().pow(2).mean().backward()
    return block.linear.weight.grad


reference = weight_grad(None, flip=False)
try:
    weight_grad(False, flip=True)
except CheckpointError as err:
    print("use_reentrant=False:", type(err).__name__)
    print("\n".join(str(err).splitlines()[:4]))
silent = weight_grad(True, flip=True)
print("use_reentrant=True: no error; gradient equals the bfloat16 one:", torch.equal(silent, reference))
