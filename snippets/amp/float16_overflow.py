import torch

torch.manual_seed(0)
activations = torch.randn(2, 1024) * 300  # large, but each value fits float16 easily
half = activations.half()
print("max |value|:", half.abs().max().item(), "< 65504")


def rms_norm(x, eps=1e-6):  # a hand-written RMSNorm, as in many models
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


print("mean of squares, float16:", half.pow(2).mean(-1).tolist())
print("rms_norm, float16:", rms_norm(half)[0, :4].tolist())
print("rms_norm, float32:", [round(v, 4) for v in rms_norm(activations)[0, :4].tolist()])

# Attention scores: a float16 dot product over 128 dims overflows, softmax turns inf into NaN.
q = torch.full((1, 128), 30.0, dtype=torch.float16)
k = torch.full((4, 128), 30.0, dtype=torch.float16)
scores = q @ k.T
print("scores:", scores.tolist(), "softmax:", torch.softmax(scores, -1).tolist())

# Fixes: reduce in float32 and cast back, or use bfloat16 (float32's range, fewer digits).
fixed = (rms_norm(half.float())).half()
print("float32 statistics:", fixed[0, :4].tolist())
print("bfloat16:", rms_norm(activations.bfloat16())[0, :4].tolist())
