import os
import warnings

import torch
from torch.utils.data import DataLoader, TensorDataset

cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
requested = cores + 2  # e.g. num_workers=4 on a 2-core machine
data = TensorDataset(torch.arange(8))

with warnings.catch_warnings():
    warnings.simplefilter("error")  # as in this site's tests: the warning becomes an exception
    try:
        DataLoader(data, batch_size=4, num_workers=requested)
    except UserWarning as w:
        # The message names this machine's numbers; print it with placeholders so the output is the same everywhere.
        print(type(w).__name__, str(w).replace(str(requested), "<requested>").replace(str(cores), "<cores>"))

safe = DataLoader(data, batch_size=4, num_workers=min(4, cores))  # no warning
print("num_workers == min(4, cores):", safe.num_workers == min(4, cores))
