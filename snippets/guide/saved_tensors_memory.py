"""Measure what autograd keeps in memory for backward, instead of guessing."""

import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(), nn.Linear(1024, 10))
params = {p.untyped_storage().data_ptr() for p in model.parameters()}
x = torch.randn(256, 512)


def saved_bytes(ctx):
    """Run model(x) under ctx and add up the tensors autograd saves (each storage once)."""
    seen = {}

    def pack(t):
        s = t.untyped_storage()
        seen[s.data_ptr()] = s.nbytes()
        return t

    with ctx, torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        model(x)
    activations = sum(n for ptr, n in seen.items() if ptr not in params)
    return len(seen), activations


for name, ctx in [("grad enabled", torch.enable_grad()), ("no_grad", torch.no_grad()), ("inference_mode", torch.inference_mode())]:
    n, act = saved_bytes(ctx)
    print(f"{name:15s} saved storages: {n:2d}  activations kept: {act / 2**20:.2f} MiB")

# A classic leak: summing losses as tensors keeps every iteration's graph alive.
def graph_nodes(t):
    stack, seen = [t.grad_fn], set()
    while stack:
        fn = stack.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            stack += [nxt for nxt, _ in fn.next_functions]
    return len(seen)


total, total_item = 0.0, 0.0
for step in range(1, 4):
    loss = model(x).square().mean()
    total = total + loss  # keeps the graph (and its saved activations)
    total_item += loss.item()  # a Python float: nothing kept
    print(f"step {step}: graph nodes reachable from total = {graph_nodes(total)}")
