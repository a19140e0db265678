import warnings

import torch

names = ["ByteStorage", "CharStorage", "ShortStorage", "IntStorage", "QInt32Storage", "FloatStorage", "DoubleStorage"]
# TypedStorage warns that it is deprecated, but only the first time in a process;
# record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    storages = {name: getattr(torch, name)(4) for name in names}

print(f"{'legacy class':14} {'dtype':14} {'bytes/value':>11}  {'holds':34} today")
for name, storage in storages.items():
    dtype = storage.dtype
    today = f"dtype={dtype}"
    if dtype.is_floating_point:
        holds = f"floats, eps {torch.finfo(dtype).eps:.2g}"
    elif dtype == torch.qint32:
        holds = "int32 (+ scale, zero pt)"
        today = "int32 tensor + scale"
    else:
        info = torch.iinfo(dtype)
        holds = f"integers {info.min}..{info.max}"
    print(f"{name:14} {str(dtype):14} {storage.element_size():>11}  {holds:34} {today}")
