"""Generate the table of output dtypes under CPU autocast from the installed torch."""

import torch

from reference_impl.amp.autocast_table import format_autocast_table

print(format_autocast_table("cpu", [(torch.bfloat16, torch.float32), (torch.bfloat16, torch.bfloat16), (torch.float16, torch.float32)]))
