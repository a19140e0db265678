import torch
import torch.multiprocessing as mp


def worker(shared, plain):
    """Runs in the child process: add 1 to both tensors, in place."""
    shared += 1
    plain += 1


def run(method):
    shared = torch.zeros(3).share_memory_()  # storage moved to shared memory, explicitly
    plain = torch.zeros(3)  # ordinary private memory
    child = mp.get_context(method).Process(target=worker, args=(shared, plain))
    child.start()
    child.join()
    print(f"{method:5} exit code {child.exitcode}: shared {shared.tolist()}  plain {plain.tolist()}"
          f"  (plain.is_shared() = {plain.is_shared()})")


if __name__ == "__main__":  # required with "spawn": the child imports this file
    print("share_memory_() -> is_shared():", torch.zeros(3).share_memory_().is_shared())
    run("spawn")  # arguments are pickled: torch moves CPU tensors to shared memory on the way
    run("fork")  # not on Windows: nothing is pickled, the child writes to its copy-on-write copy
