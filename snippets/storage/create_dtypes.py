import torch

for dtype in (torch.float32, torch.float16, torch.bfloat16):
    t = torch.zeros(1000, dtype=dtype)  # add device="cuda" on a GPU
    print(
        f"{str(t.dtype):15}"
        f" element_size={t.element_size()}"
        f" nbytes={t.nbytes}"
        f" storage={type(t.untyped_storage()).__name__}({t.untyped_storage().nbytes()} bytes)"
    )
