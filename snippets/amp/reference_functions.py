import torch

from reference_impl.amp import DtypeLog, logsumexp_float32, matmul_with_dtype_log

torch.manual_seed(0)
log = DtypeLog()
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, 5, requires_grad=True)
with torch.autocast("cpu", dtype=torch.bfloat16):
    scores = matmul_with_dtype_log(a, b, log)  # custom_fwd / custom_bwd
    total = logsumexp_float32(scores)  # custom_fwd(cast_inputs=torch.float32)
total.sum().backward()
for phase, text in log:
    print(f"{phase:8} {text}")
print("scores", scores.dtype, "| logsumexp", total.dtype, "| a.grad", a.grad.dtype)
