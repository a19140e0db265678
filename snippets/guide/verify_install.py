"""Check a PyTorch installation: version, build, devices, bfloat16 support."""

import platform

import torch

print("python     ", platform.python_version())
print("torch      ", torch.__version__)
print("built for CUDA", torch.version.cuda)  # None on a CPU-only build
print("CUDA available", torch.cuda.is_available())
print("GPUs       ", torch.cuda.device_count())  # those CUDA_VISIBLE_DEVICES lets this process see
if torch.cuda.is_available():
    for i in range(torch.cuda.device_count()):
        print(f"  cuda:{i}", torch.cuda.get_device_name(i), "capability", torch.cuda.get_device_capability(i))
    # Native bfloat16 needs compute capability 8.0 (Ampere) or newer. is_bf16_supported() alone
    # also says True on older GPUs (V100, T4), where bfloat16 only runs by slow emulation.
    print("bf16 on GPU, native", torch.cuda.is_bf16_supported(including_emulation=False))
    print("bf16 on GPU, incl. emulation", torch.cuda.is_bf16_supported())
    x = torch.randn(256, 256, device="cuda")
    print("GPU matmul ok", bool(torch.isfinite(x @ x).all()))
print("CPU threads", torch.get_num_threads())
print("CPU ISA    ", torch.backends.cpu.get_cpu_capability())
# bfloat16 runs on every CPU; speed depends on the instruction set (AVX512-BF16 / AMX are fast).
y = torch.ones(4, 4, dtype=torch.bfloat16)
print("bf16 on CPU ok", (y @ y)[0, 0].item() == 4.0)
