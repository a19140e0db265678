"""DataLoader with worker processes: run this file as a script (python loader_workers.py)."""

import os
import threading

import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    """Defined at module top level, so worker processes can import it."""

    def __len__(self):
        return 100

    def __getitem__(self, idx):
        return torch.tensor([idx, idx * idx])


def available_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def main():
    loader = DataLoader(
        Squares(),
        batch_size=10,
        num_workers=min(2, available_cores()),  # never more workers than cores
        multiprocessing_context="spawn",  # the default on Windows and macOS; needs the guard below
        persistent_workers=True,  # keep workers between epochs instead of restarting them
    )
    for epoch in range(2):
        total = sum(batch[:, 1].sum().item() for batch in loader)
        print(f"epoch {epoch}: {len(loader)} batches, sum of squares = {total}")


def wait_for_queue_threads(timeout: float = 5.0) -> None:
    """Let the threads that close the workers' queues finish before Python exits (see the page)."""
    for thread in threading.enumerate():
        if thread.name == "QueueFeederThread":
            thread.join(timeout)


if __name__ == "__main__":  # worker processes import this file; without the guard they would rerun main()
    main()  # the loader goes out of scope here: its workers are stopped and its queues closed
    wait_for_queue_threads()
