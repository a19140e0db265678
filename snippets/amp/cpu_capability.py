from pathlib import Path

import torch

# Which vector instructions PyTorch's CPU kernels were dispatched to (e.g. AVX2, AVX512).
print("torch", torch.__version__, "| kernels:", torch.backends.cpu.get_cpu_capability())

# bfloat16 matmuls are fast only with AMX-BF16 (or at least AVX512-BF16); read the flags on Linux.
cpuinfo = Path("/proc/cpuinfo")
if cpuinfo.exists():
    flags = set(next(ln for ln in cpuinfo.read_text().splitlines() if ln.startswith("flags")).split())
    for flag in ("avx2", "avx512f", "avx512_bf16", "amx_bf16", "avx512_fp16", "amx_fp16"):
        print(f"{flag:12} {'yes' if flag in flags else 'no'}")
