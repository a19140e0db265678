import warnings

import torch

# The legacy spelling still runs in torch 2.13, but every TypedStorage call warns.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    legacy = torch.HalfTensor(torch.HalfStorage(100))
legacy.fill_(1.23)
print(f"{caught[0].category.__name__}: {str(caught[0].message).split('.')[0]}")
print(legacy[:4])

# Today: say the dtype (and the device) when you create the tensor.
modern = torch.full((100,), 1.23, dtype=torch.float16)
print(modern[:4])
print(torch.equal(legacy, modern))
print(modern.untyped_storage().nbytes(), "bytes")
