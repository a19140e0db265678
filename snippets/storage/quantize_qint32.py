import textwrap
import warnings

import torch

x = torch.tensor([0.0, 1.0, -2.5, 3.2, 1000.0])

# The quantized dtypes warn once per process in torch 2.13: catch the warning and show it.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    q = torch.quantize_per_tensor(x, scale=0.5, zero_point=0, dtype=torch.qint32)
message = str(caught[0].message).split(" (Triggered internally")[0]
print(caught[0].category.__name__ + ":")
print(textwrap.fill(message, width=88, initial_indent="  ", subsequent_indent="  "))

print(q)
print("int_repr():  ", q.int_repr())  # the stored integers: round(x / scale) + zero_point
print("q_scale():   ", q.q_scale(), " q_zero_point():", q.q_zero_point())
print("qscheme():   ", q.qscheme())  # reads the scheme; it cannot set one
print("dequantize():", q.dequantize())  # (int_repr - zero_point) * scale, back to float32
