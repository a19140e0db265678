import torch

torch.manual_seed(0)
x = torch.randn(1024, 1024)  # ordinary (pageable) host memory
pinned = x.pin_memory()  # a page-locked copy that the GPU can read by DMA
print("pinned:", x.is_pinned(), pinned.is_pinned())

# Host -> GPU from pinned memory with non_blocking=True returns at once; the copy runs on the
# current CUDA stream, and kernels queued after it on that stream see the finished copy.
gpu = pinned.to("cuda", non_blocking=True)
total = (gpu * 2).sum()
print("same result:", torch.allclose(total.cpu(), (x * 2).sum(), rtol=1e-4, atol=1e-2))
print(".to('cuda') of a CUDA tensor returns it:", gpu.to("cuda") is gpu)

# GPU -> host with non_blocking=True: the host does NOT wait. Synchronize before reading.
back = torch.empty(x.shape, pin_memory=True)
back.copy_(gpu, non_blocking=True)
done = torch.cuda.Event()
done.record()
done.synchronize()  # without this, `back` may still be (partly) empty
print("copied back intact:", torch.equal(back, x))
print("storages:", x.untyped_storage().device, gpu.untyped_storage().device)
