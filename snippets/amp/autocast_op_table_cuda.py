"""Generate the table of output dtypes under CUDA autocast from the installed torch, GPU or not."""

import torch

from reference_impl.amp.autocast_table import format_autocast_table

columns = [(torch.float16, torch.float32), (torch.float16, torch.float16), (torch.bfloat16, torch.float32)]
# fake=True: CUDA's autocast rules decide the casts, but no kernel runs, so no GPU is needed.
print(format_autocast_table("cuda", columns, fake=True))
