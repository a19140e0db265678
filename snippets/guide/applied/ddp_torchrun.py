"""DDP on CPU with the gloo backend, two processes started by torchrun.

Run:  torchrun --nproc_per_node=2 ddp_torchrun.py
      (or `python ddp_torchrun.py`, which starts exactly that on a free local port)
"""

import os
import socket
import subprocess
import sys
import time
from datetime import timedelta

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch_with_torchrun():
    port = free_port()
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2",
           "--master_addr=127.0.0.1", f"--master_port={port}", __file__]
    env = dict(os.environ, OMP_NUM_THREADS="1")  # 1 thread per process: 2 processes on 2 cores
    return subprocess.run(cmd, env=env, timeout=150).returncode


def train():
    # torchrun sets RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT for every process
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)  # the same data on every rank; the sampler gives each rank its share
    data = TensorDataset(torch.randn(256, 8), torch.randn(256, 1))
    torch.manual_seed(rank)  # deliberately different initial weights: DDP broadcasts rank 0's
    model = DDP(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
    sampler = DistributedSampler(data, num_replicas=world, rank=rank, shuffle=True, seed=0)
    loader = DataLoader(data, batch_size=16, sampler=sampler)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    first_batches = []
    for epoch in range(3):
        sampler.set_epoch(epoch)  # a new shuffle each epoch (the same on all ranks)
        for i, (x, y) in enumerate(loader):
            if i == 0:
                first_batches.append(round(x[0, 0].item(), 4))
            optimizer.zero_grad()
            nn.functional.mse_loss(model(x), y).backward()  # gradients are averaged across ranks here
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
    checksum = sum(p.double().sum().item() for p in model.parameters())
    report = [None] * world
    dist.all_gather_object(report, (rank, len(loader), round(checksum, 4), first_batches))
    if rank == 0:
        for r, batches, check, firsts in report:
            print(f"rank {r}: {batches} batches per epoch, parameter checksum {check:.4f}")
        print("identical parameters on all ranks:", len({check for _, _, check, _ in report}) == 1)
        print("each epoch starts with a different batch:", all(len(set(f)) == 3 for *_, f in report))
    # gloo's worker threads may still be releasing the last collective's tensors; a process that
    # exits in that moment aborts ("terminate called without an active exception"). See the page.
    time.sleep(0.5)
    dist.destroy_process_group()


if __name__ == "__main__":
    if "LOCAL_RANK" in os.environ:
        train()
    else:
        sys.exit(launch_with_torchrun())
