import warnings

import torch
from torch import nn

model = nn.Sequential(nn.Linear(4, 4)).eval()
# Record, instead of hiding, what torch 2.13 says when the old API is used.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)

seen = set()
for w in caught:
    message = str(w.message).split(" (Triggered internally")[0]  # drop the build path
    text = "\n".join(line.strip() for line in message.splitlines())
    if text not in seen:
        seen.add(text)
        print(f"--- {w.category.__name__}\n{text}")
