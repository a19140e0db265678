import torch


class LogSumExp32(torch.autograd.Function):
    """log(sum(exp(x), dim=-1)), always in float32 inside a CPU autocast region."""

    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, x):
        # Under autocast, x arrives as float32 and autocast is off in here.
        peak = x.amax(-1, keepdim=True)
        out = peak + (x - peak).exp().sum(-1, keepdim=True).log()
        ctx.save_for_backward(x, out)
        return out.squeeze(-1)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, grad):
        x, out = ctx.saved_tensors
        return grad.unsqueeze(-1) * (x - out).exp()  # the gradient of logsumexp is softmax


torch.manual_seed(0)
h, w = torch.randn(64, 32), torch.randn(32, 1000)
with torch.autocast("cpu", dtype=torch.bfloat16):
    logits = h @ w  # bfloat16
    plain = torch.logsumexp(logits, -1)  # runs in the input dtype
    custom = LogSumExp32.apply(logits)  # cast to float32 first
exact = torch.logsumexp(logits.double(), -1)  # of the same bfloat16 logits, in float64
for name, result in (("torch.logsumexp", plain), ("LogSumExp32", custom)):
    error = (result.double() - exact).abs().max().item()
    print(f"{name:16} {str(result.dtype):15} max error {error:.0e}")

x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
print("gradcheck:", torch.autograd.gradcheck(LogSumExp32.apply, (x,)))
with torch.autocast("cpu", dtype=torch.bfloat16):  # float64 is never autocast
    print("gradcheck under autocast:", torch.autograd.gradcheck(LogSumExp32.apply, (x,)))
