import warnings

import torch

# The legacy spelling still runs in torch 2.13. TypedStorage warns that it is deprecated, but
# only the first time in a process; record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    legacy = torch.HalfTensor(torch.HalfStorage(100))
legacy.fill_(1.23)
print(legacy[:4])

# Today: say the dtype (and the device) when you create the tensor.
modern = torch.full((100,), 1.23, dtype=torch.float16)
print(modern[:4])
print(torch.equal(legacy, modern))
print(modern.untyped_storage().nbytes(), "bytes")
