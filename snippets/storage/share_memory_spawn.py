# timeout: 120
import torch
import torch.multiprocessing as mp


def worker(shared, copied_in, done):
    """Runs in a child process: write into both tensors in place."""
    shared += 1
    copied_in += 1
    done.put(shared.is_shared())


if __name__ == "__main__":  # required with "spawn": the child imports this file
    shared = torch.zeros(4).share_memory_()  # move the storage to shared memory, explicitly
    plain = torch.zeros(4)
    print("before: shared.is_shared() =", shared.is_shared(), " plain.is_shared() =", plain.is_shared())

    ctx = mp.get_context("spawn")
    done = ctx.SimpleQueue()
    child = ctx.Process(target=worker, args=(shared, plain, done))
    child.start()
    print("child saw shared memory:", done.get())
    child.join()
    print("child exit code:", child.exitcode)

    print("parent sees", shared.tolist())  # the child's writes are visible
    # Sending a CPU tensor to a child moves its storage to shared memory too, silently:
    print("plain now", plain.tolist(), " plain.is_shared() =", plain.is_shared())
