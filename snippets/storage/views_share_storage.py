import torch

x = torch.arange(6, dtype=torch.float16)
row = x.view(2, 3)[1]  # a view: no copy
print(row.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(), row.storage_offset())
row[0] = 100  # writes through to x
print(x)

as_float = x.float()  # a dtype change always allocates a new storage
print(as_float.untyped_storage().data_ptr() == x.untyped_storage().data_ptr())
print(x.untyped_storage().nbytes(), "->", as_float.untyped_storage().nbytes(), "bytes")

# A small view keeps its whole storage alive; clone() to keep only what you need.
big = torch.zeros(1_000_000, dtype=torch.float16)
small = big[:10]
print(small.nbytes, small.untyped_storage().nbytes(), small.clone().untyped_storage().nbytes())
