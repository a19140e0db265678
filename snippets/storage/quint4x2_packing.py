import warnings

import torch

values = torch.tensor([0.5, 1.0, 1.5, 7.5, 3.0])  # five values, scale 0.5 -> integers 1, 2, 3, 15, 6
# torch 2.13 warns that the quantized dtypes are deprecated, once per process (torch 2.11
# does not); record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    q = torch.quantize_per_tensor(values, scale=0.5, zero_point=0, dtype=torch.quint4x2)

print("numel:", q.numel(), " element_size():", q.element_size(), " nbytes:", q.nbytes)
print("bytes really stored:", q.untyped_storage().nbytes())  # ceil(5 / 2) = 3
packed = q.int_repr()  # for quint4x2 this returns the packed bytes, not one value per element
print("packed bytes:", [f"{b:#04x}" for b in packed.tolist()])
print("low nibble first:", [n for b in packed.tolist() for n in (b & 0xF, b >> 4)][: q.numel()])
print(q.dequantize())
