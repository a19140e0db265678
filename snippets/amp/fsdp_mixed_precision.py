"""FSDP2 mixed precision on CPU: two gloo processes, bfloat16 compute, float32 weights and gradients."""

import socket
import time
import warnings

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler


def build(param_dtype):
    torch.manual_seed(0)  # the same initial weights in every process
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    policy = MixedPrecisionPolicy(param_dtype=param_dtype, reduce_dtype=torch.float32)
    for layer in model:
        if isinstance(layer, nn.Linear):
            fully_shard(layer, mp_policy=policy)  # each Linear is gathered and freed on its own
    fully_shard(model, mp_policy=policy)
    return model


def report(rank, text):
    # collect one line per process and print them in rank order from rank 0
    lines = [None] * dist.get_world_size()
    dist.all_gather_object(lines, f"rank {rank}: {text}")
    if rank == 0:
        print("\n".join(lines))


def worker(rank, world_size, port):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world_size)

    # 1. bfloat16: no scaler
    model = build(torch.bfloat16)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    torch.manual_seed(rank)  # each process gets its own batch
    x, target = torch.randn(8, 16), torch.randn(8, 4)
    out = model(x)
    nn.functional.mse_loss(out.float(), target).backward()
    opt.step()
    w = model[0].weight
    report(rank, f"output {out.dtype}, weight shard {w.to_local().dtype} {tuple(w.to_local().shape)} "
                 f"of {tuple(w.shape)}, grad {w.grad.dtype}")

    # 2. float16: torch.amp.GradScaler; only rank 1 overflows, both ranks skip the step
    model = build(torch.float16)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")
    if rank == 1:
        x = x * 1e5  # float16 overflows to inf in this process only
    loss = nn.functional.mse_loss(model(x).float(), target)
    before = model[0].weight.to_local().clone()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    skipped = torch.equal(before, model[0].weight.to_local())
    report(rank, f"loss finite {bool(loss.isfinite())}, step skipped {skipped}, next scale {scaler.get_scale()}")

    # 3. ShardedGradScaler (written for FSDP1) on FSDP2's DTensor gradients
    model = build(torch.float16)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = ShardedGradScaler("cpu")
    scaler.scale(nn.functional.mse_loss(model(x / 1e5).float(), target)).backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scaler.step(opt)
    first = f"{caught[0].category.__name__}: {str(caught[0].message)[:60]}..." if caught else "no warning"
    report(rank, f"ShardedGradScaler: {first}")

    # gloo's worker threads may still be releasing the last collective's tensors; a process that
    # exits in that moment aborts ("terminate called without an active exception"): see the
    # distributed-training chapter of the guide.
    time.sleep(0.5)
    dist.destroy_process_group()


if __name__ == "__main__":
    with socket.socket() as s:  # a free port for the rendezvous
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(worker, args=(2, port), nprocs=2)
