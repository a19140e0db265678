import warnings

import torch

# "A qint32 tensor holding 1..5 with scheme (per-tensor affine, scale 128, zero point 0)":
# quantize real values; the stored integers are round(value / scale) + zero_point.
stored = torch.tensor([1, 2, 3, 4, 5])
# torch 2.13 warns that the quantized dtypes are deprecated, once per process (torch 2.11
# does not); record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    q = torch.quantize_per_tensor(stored * 128.0, scale=128.0, zero_point=0, dtype=torch.qint32)
print(q.int_repr(), q.qscheme(), q.q_scale(), q.q_zero_point())
print(q.untyped_storage().nbytes(), "bytes for", q.numel(), "values")

# Random integers: randint, not randn.
torch.manual_seed(0)
ints = torch.randint(-100, 100, (10,), dtype=torch.int32)
print(ints)

# "Part of a storage": slice the tensor. The slice is a view: same storage, offset 5.
part = ints[5:8]
print(part, part.storage_offset(), part.untyped_storage().data_ptr() == ints.untyped_storage().data_ptr())
part[0] = 999  # writes through to ints
print(ints[5].item())
