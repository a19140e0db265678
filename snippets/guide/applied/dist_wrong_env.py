"""Setting RANK and WORLD_SIZE by hand in one process: rank 0 waits for peers that never come."""

import os
import re
import socket
from datetime import timedelta

import torch.distributed as dist
from torch.distributed.constants import default_pg_nccl_timeout, default_pg_timeout

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]

# A common mistake: declare a world of 2 (often 4) from a single `python train.py` process.
print("default timeout, gloo:", default_pg_timeout)
print("default timeout, nccl:", default_pg_nccl_timeout)  # None on a build without NCCL
os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), WORLD_SIZE="2", RANK="0")
try:
    # with the default timeout this waits this long; a short one turns the hang into an error
    dist.init_process_group("gloo", timeout=timedelta(seconds=3))
except dist.DistStoreError as err:
    # the number of seconds in the message can differ by one between runs
    print(type(err).__name__ + ":", re.sub(r"after \d+ seconds", "after N seconds", str(err)))
