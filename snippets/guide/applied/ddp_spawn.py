"""DDP on CPU with the gloo backend, two processes started by torch.multiprocessing.spawn."""

import os
import socket
import time
from datetime import timedelta

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def worker(rank, world_size, port):
    # mp.spawn passes the process index as the first argument; the rest is up to us
    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world_size,
        timeout=timedelta(seconds=60),
    )
    torch.manual_seed(0)
    data = TensorDataset(torch.randn(256, 8), torch.randn(256, 1))
    torch.manual_seed(rank)  # different initial weights on purpose: DDP broadcasts rank 0's
    model = DDP(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
    sampler = DistributedSampler(data, num_replicas=world_size, rank=rank, shuffle=True, seed=0)
    loader = DataLoader(data, batch_size=16, sampler=sampler)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        for x, y in loader:
            optimizer.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
    checksum = torch.tensor([sum(p.double().sum().item() for p in model.parameters())], dtype=torch.float64)
    gathered = [torch.zeros_like(checksum) for _ in range(world_size)]
    dist.all_gather(gathered, checksum)
    if rank == 0:
        for r, value in enumerate(gathered):
            print(f"rank {r}: parameter checksum {value.item():.4f}")
        print("identical parameters on all ranks:", all(torch.equal(g, gathered[0]) for g in gathered))
    time.sleep(0.5)  # let gloo's threads finish before the process exits (see the torchrun script)
    dist.destroy_process_group()


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


if __name__ == "__main__":  # required: spawn starts fresh interpreters that import this file
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    mp.spawn(worker, args=(2, free_port()), nprocs=2, join=True)
