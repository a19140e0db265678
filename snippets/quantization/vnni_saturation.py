"""Why x86 int8 kernels quantize activations to 7 bits: int16 pair sums on CPUs without VNNI."""

import torch

from reference_impl.quantization import int32_accumulate

w = torch.tensor([[127, 127, -128, 100]], dtype=torch.int8)  # int8 weight codes
full = torch.tensor([[255, 255, 0, 200]], dtype=torch.uint8)  # 8-bit activation codes (0..255)
half = full // 2  # reduce_range: 7-bit activation codes (0..127)

for name, x in (("8-bit activations", full), ("7-bit activations", half)):
    exact = int32_accumulate(x, 0, w, 0).item()  # VNNI: products go straight into int32
    pairs = int32_accumulate(x, 0, w, 0, saturate_pairs=True).item()  # no VNNI: int16 pair sums first
    print(f"{name}: exact {exact:6d} | with int16 pair sums {pairs:6d}")
