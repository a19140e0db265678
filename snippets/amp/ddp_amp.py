"""DDP with float16 autocast and a GradScaler on CPU: two gloo processes started by torchrun.

Run:  torchrun --nproc_per_node=2 ddp_amp.py
      (or `python ddp_amp.py`, which starts exactly that on a free local port)
"""

import contextlib
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


def launch_with_torchrun():
    with socket.socket() as s:  # a free port for the rendezvous
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2",
           "--master_addr=127.0.0.1", f"--master_port={port}", __file__]
    env = dict(os.environ, OMP_NUM_THREADS="1")  # 1 thread per process: 2 processes on 2 cores
    return subprocess.run(cmd, env=env, timeout=150).returncode


def train():
    dist.init_process_group("gloo", timeout=timedelta(seconds=60))
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = DDP(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    scaler = torch.amp.GradScaler("cpu")  # one per process, created once, as without DDP
    torch.manual_seed(rank)  # each rank trains on its own data
    x, y = torch.randn(64, 8), torch.randn(64, 1)
    accumulate = 2  # 2 micro-batches of 32 per step on each rank
    lines = []
    for step in range(4):
        optimizer.zero_grad()
        for i, (micro_x, micro_y) in enumerate(zip(x.chunk(accumulate), y.chunk(accumulate))):
            if step == 2 and rank == 1:
                micro_x = micro_x * 1e5  # float16 overflows on rank 1 only
            last = i == accumulate - 1
            sync = contextlib.nullcontext() if last else model.no_sync()  # all-reduce once per step
            with sync:
                with torch.autocast("cpu", dtype=torch.float16):
                    loss = nn.functional.mse_loss(model(micro_x), micro_y) / accumulate
                scaler.scale(loss).backward()  # the last backward averages the scaled gradients
        before = model.module[0].weight.clone()
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        scaler.step(optimizer)  # an inf on any rank is in every rank's averaged gradient
        scaler.update()
        skipped = torch.equal(before, model.module[0].weight)
        lines.append(f"step {step}: skipped {skipped}, next scale {scaler.get_scale():.0f}")
    params = torch.cat([p.detach().flatten() for p in model.parameters()])
    report = [None] * world
    dist.all_gather_object(report, (lines, params))  # print from rank 0 only, in rank order
    if rank == 0:
        for r, (rank_lines, _) in enumerate(report):
            print("\n".join(f"rank {r}: {line}" for line in rank_lines))
        print("identical parameters on all ranks:", all(torch.equal(p, report[0][1]) for _, p in report))
    # gloo's worker threads may still be releasing the last collective's tensors; a process that
    # exits in that moment aborts ("terminate called without an active exception"): see the
    # distributed-training chapter of the guide.
    time.sleep(0.5)
    dist.destroy_process_group()


if __name__ == "__main__":
    if "LOCAL_RANK" in os.environ:
        train()
    else:
        sys.exit(launch_with_torchrun())
