import torch

from reference_impl.storage import float32_to_float16, float32_to_float16_bits

x = torch.tensor([1.23, 65504.0, 65520.0, 2.0**-24, 2.0**-25, -0.0])
ours = float32_to_float16(x)  # integer bit operations only
print(ours)
print(torch.equal(ours.view(torch.int16), x.half().view(torch.int16)))  # bit for bit
print([f"{b:#06x}" for b in float32_to_float16_bits(x).view(torch.uint16).tolist()])
