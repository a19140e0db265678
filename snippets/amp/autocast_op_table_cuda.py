# requires: cuda
"""Generate the table of output dtypes under CUDA autocast from the installed torch."""

import torch

from reference_impl.amp.autocast_table import format_autocast_table

columns = [(torch.float16, torch.float32), (torch.float16, torch.float16), (torch.bfloat16, torch.float32)]
print(format_autocast_table("cuda", columns))
