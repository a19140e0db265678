import warnings

import torch

x = torch.tensor([0.0, 1.0, -2.5, 3.2, 1000.0])

# torch 2.13 warns that the quantized dtypes are deprecated, once per process (torch 2.11
# does not); record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    q = torch.quantize_per_tensor(x, scale=0.5, zero_point=0, dtype=torch.qint32)
print(q)
print("int_repr():  ", q.int_repr())  # the stored integers: round(x / scale) + zero_point
print("q_scale():   ", q.q_scale(), " q_zero_point():", q.q_zero_point())
print("qscheme():   ", q.qscheme())  # reads the scheme; it cannot set one
print("dequantize():", q.dequantize())  # (int_repr - zero_point) * scale, back to float32
