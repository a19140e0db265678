"""Which kernel scaled_dot_product_attention runs on a CPU, for each dtype."""

import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def kernel_that_ran(q, **options):
    """The ATen kernel that computed the attention, as the profiler recorded it, and the output dtype."""
    with torch.profiler.profile() as prof:
        out = F.scaled_dot_product_attention(q, q, q, **options)
    ops = [event.key for event in prof.key_averages()]
    return next(op for op in ops if op.startswith("aten::_scaled_dot_product")), out.dtype


torch.manual_seed(0)
q = torch.randn(2, 4, 64, 32)  # (batch, heads, sequence, head dimension)
for dtype in (torch.float32, torch.bfloat16, torch.float16):
    print(f"{str(dtype):24} -> %s, %s" % kernel_that_ran(q.to(dtype)))
with torch.autocast("cpu", dtype=torch.bfloat16):  # a float32 model under autocast
    print(f"{'float32 under autocast':24} -> %s, %s" % kernel_that_ran(q))
print(f"{'float32, dropout_p=0.1':24} -> %s, %s" % kernel_that_ran(q, dropout_p=0.1))

# Ask for one backend only: inputs it cannot run raise an error (after warnings that say why).
for backend, options in ((SDPBackend.EFFICIENT_ATTENTION, {}), (SDPBackend.FLASH_ATTENTION, {"dropout_p": 0.1})):
    print(f"sdpa_kernel({backend.name}), {options}:")
    with warnings.catch_warnings(record=True) as caught, sdpa_kernel(backend):
        warnings.simplefilter("always")
        try:
            F.scaled_dot_product_attention(q, q, q, **options)
        except RuntimeError as error:
            failure = f"RuntimeError: {error}"
    for warning in caught:
        # torch ends each message with where its C++ source raised it: " (Triggered internally at ...)"
        print(f"  {warning.category.__name__}: {str(warning.message).split(' (Triggered')[0]}")
    print(f"  {failure}")
