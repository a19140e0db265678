"""Masking attention scores in float16: -1e9 against torch.finfo(dtype).min."""

import torch

scores = torch.tensor([[2.0, 1.0, 0.5, 0.25],
                       [1.5, 0.5, -0.5, 3.0]], dtype=torch.float16)
padding = torch.tensor([[False, False, True, True],   # the last two keys are padding
                        [True, True, True, True]])    # a row with nothing left to attend to

try:
    scores.masked_fill(padding, -1e9)  # a common mistake: -1e9 is beyond float16's range
except RuntimeError as error:
    print(f"masked_fill(-1e9):  RuntimeError: {error}")

lowest = torch.finfo(scores.dtype).min  # -65504 in float16, -3.4e38 in float32
filled = scores.masked_fill(padding, lowest)
print(f"masked_fill(finfo.min) -> softmax:\n{filled.softmax(dim=-1)}")

# The additive form: 1 where masked, times a large negative number, added to the scores.
additive = padding.to(torch.float16) * -1e9  # float16 has no -1e9: the product is -inf
print(f"additive mask * -1e9: {additive[1].tolist()}")
print(f"scores + additive mask -> softmax:\n{(scores + additive).softmax(dim=-1)}")

# Two additive masks of finfo.min (padding and causal, say) add up to -inf as well.
twice = padding.to(torch.float16) * lowest + padding.to(torch.float16) * lowest
print(f"finfo.min + finfo.min: {twice[1].tolist()}")

# scaled_dot_product_attention takes the boolean mask itself (True: may attend) and picks the fill.
torch.manual_seed(0)
q, k, v = torch.randn(3, 1, 1, 4, 8, dtype=torch.float16)  # (batch, heads, positions, head dimension)
allowed = ~padding[[0, 0, 0, 1]]  # queries 0-2 see the first two keys, query 3 sees none
out = torch.nn.functional.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
print(f"SDPA, boolean mask: NaN anywhere: {out.isnan().any().item()}, fully masked row: {out[0, 0, 3].tolist()}")
