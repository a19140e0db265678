import warnings

import torch

x = torch.linspace(-4, 4, 1000)  # 1000 float32 values
# torch 2.13 warns that the quantized dtypes are deprecated, once per process (torch 2.11
# does not); record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    tensors = {
        "float32": x,
        "qint32": torch.quantize_per_tensor(x, scale=0.001, zero_point=0, dtype=torch.qint32),
        "qint8": torch.quantize_per_tensor(x, scale=8 / 255, zero_point=0, dtype=torch.qint8),
        "quint8": torch.quantize_per_tensor(x, scale=8 / 255, zero_point=128, dtype=torch.quint8),
        "quint4x2": torch.quantize_per_tensor(x + 4, scale=8 / 15, zero_point=0, dtype=torch.quint4x2),
    }

print(f"{'dtype':9} {'element_size()':>14} {'storage bytes':>13} {'vs float32':>10}  storage class")
for name, t in tensors.items():
    storage = t.untyped_storage()  # the raw bytes; scale and zero point live on the tensor, not here
    ratio = storage.nbytes() / x.untyped_storage().nbytes()
    print(f"{name:9} {t.element_size():>14} {storage.nbytes():>13} {ratio:>10.3g}  {type(storage).__name__}")

q = tensors["qint32"]
print("same bytes as int_repr():", torch.equal(torch.frombuffer(bytearray(q.untyped_storage()), dtype=torch.int32), q.int_repr()))
