import torch

device = torch.device("cuda")
weights = torch.randn(4096, 4096, device=device)  # float32 on the GPU
half = weights.to(torch.float16)  # a new GPU storage, half the bytes
bf16 = weights.to(torch.bfloat16)
for t in (weights, half, bf16):
    print(t.device, t.dtype, t.untyped_storage().nbytes() // 2**20, "MiB")
major, minor = torch.cuda.get_device_capability()
# bfloat16 is native from compute capability 8.0 (Ampere); is_bf16_supported() without the
# argument is True on older GPUs too, because there it counts slow emulation as support.
native = torch.cuda.is_bf16_supported(including_emulation=False)
print(torch.cuda.get_device_name(), f"capability {major}.{minor}", "native bf16:", native)
