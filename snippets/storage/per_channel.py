import warnings

import torch

# A weight whose two output channels (rows) have very different magnitudes.
w = torch.tensor([[0.010, -0.020, 0.030, 0.005],
                  [2.000, -1.500, 0.700, 3.000]])
zero = torch.zeros(2, dtype=torch.int64)

# torch 2.13 warns that the quantized dtypes are deprecated, once per process (torch 2.11
# does not); record=True catches the warning whether it comes or not.
with warnings.catch_warnings(record=True):
    warnings.simplefilter("always")
    per_tensor = torch.quantize_per_tensor(w, scale=w.abs().max().item() / 127, zero_point=0, dtype=torch.qint8)
    scales = w.abs().amax(dim=1) / 127  # one scale per row (axis 0)
    per_channel = torch.quantize_per_channel(w, scales=scales, zero_points=zero, axis=0, dtype=torch.qint8)

for q in (per_tensor, per_channel):
    error = (q.dequantize() - w).abs().amax(dim=1) / w.abs().amax(dim=1)
    print(q.qscheme())
    print("  int_repr rows:", q.int_repr().tolist())
    print("  max error per row, relative to the row's max:", [f"{e:.1%}" for e in error.tolist()])
scales = per_channel.q_per_channel_scales()  # float64, one per row
print("per-channel scales:", [f"{s:.3g}" for s in scales.tolist()], "axis:", per_channel.q_per_channel_axis())
