"""Stop after 2 epochs, save, 'crash', rebuild from scratch, resume: the losses match an uninterrupted run."""

import random
from pathlib import Path

import torch
from sklearn.datasets import load_digits
from torch import nn

from reference_impl.checkpoint import load_checkpoint, save_checkpoint

torch.set_num_threads(1)
digits = load_digits()
X = torch.tensor(digits.data[:512], dtype=torch.float32) / 16.0
y = torch.tensor(digits.target[:512])


def build():
    model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 10))
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
    scaler = torch.amp.GradScaler("cpu")  # on a GPU: GradScaler("cuda") with float16 autocast
    return model, opt, sched, scaler


def run_epoch(model, opt, sched, scaler):
    model.train()
    total = 0.0
    for batch in torch.randperm(len(y)).split(64):  # shuffling and dropout use the global RNG
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(X[batch]), y[batch])
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        total += loss.item()
    sched.step()
    return round(total / 8, 6)


torch.manual_seed(0)
objs = build()
straight = [run_epoch(*objs) for _ in range(4)]
print("uninterrupted:", straight)

torch.manual_seed(0)
model, opt, sched, scaler = objs = build()
first = [run_epoch(*objs) for _ in range(2)]
save_checkpoint(Path("ckpt.pt"), model=model, optimizer=opt, scheduler=sched, scaler=scaler, epoch=2)

del model, opt, sched, scaler, objs  # the process "crashes" ...
torch.manual_seed(random.randrange(2**32))  # ... and the new one starts with another RNG state
model, opt, sched, scaler = objs = build()  # build everything exactly as before, then load states
meta = load_checkpoint(Path("ckpt.pt"), model=model, optimizer=opt, scheduler=sched, scaler=scaler)
resumed = first + [run_epoch(*objs) for _ in range(meta["epoch"], 4)]
print("resumed:      ", resumed)
print("identical:", resumed == straight)

# Resuming from the model weights alone is not the same run: AdamW's moments, the LR schedule
# and the RNG are lost.
model, opt, sched, scaler = objs = build()
model.load_state_dict(torch.load("ckpt.pt")["model"])
naive = first + [run_epoch(*objs) for _ in range(2)]
print("weights only: ", naive)
print("identical:", naive == straight)
