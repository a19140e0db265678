"""Activation checkpointing under autocast: the recompute in backward runs under the forward's autocast state."""

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
block = nn.Sequential(nn.Linear(64, 64), nn.GELU(), nn.Linear(64, 64))
x = torch.randn(16, 64)


def gradients(use_checkpoint):
    block.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        if use_checkpoint:
            y = checkpoint(block, x, use_reentrant=False)  # recomputed in backward
        else:
            y = block(x)  # activations kept
    y.float().pow(2).mean().backward()  # backward outside the autocast region, as usual
    return [p.grad.clone() for p in block.parameters()]


plain, recomputed = gradients(False), gradients(True)
print("same gradients with and without checkpoint:", all(map(torch.equal, plain, recomputed)))
