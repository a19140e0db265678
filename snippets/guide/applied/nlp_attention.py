"""Multi-head attention written out with F.scaled_dot_product_attention, checked against nn.MultiheadAttention."""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def split_heads(self, x):
        # (batch, seq, d_model) -> (batch, heads, seq, d_k)
        batch, seq, _ = x.shape
        return x.view(batch, seq, self.num_heads, self.d_k).transpose(1, 2)

    def merge_heads(self, x):
        # (batch, heads, seq, d_k) -> (batch, seq, d_model)
        batch, _, seq, _ = x.shape
        return x.transpose(1, 2).reshape(batch, seq, self.num_heads * self.d_k)

    def forward(self, query, key, value, key_padding_mask=None):
        q = self.split_heads(self.w_q(query))
        k = self.split_heads(self.w_k(key))
        v = self.split_heads(self.w_v(value))
        attn_mask = None
        if key_padding_mask is not None:
            # True = padding; SDPA wants True = "may attend", shaped to broadcast over heads and queries
            attn_mask = ~key_padding_mask[:, None, None, :]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return self.w_o(self.merge_heads(out))


d_model, heads = 16, 4
ours = MultiHeadAttention(d_model, heads).eval()
ref = nn.MultiheadAttention(d_model, heads, batch_first=True).eval()
with torch.no_grad():  # give the reference the same weights
    ref.in_proj_weight.copy_(torch.cat([ours.w_q.weight, ours.w_k.weight, ours.w_v.weight]))
    ref.in_proj_bias.copy_(torch.cat([ours.w_q.bias, ours.w_k.bias, ours.w_v.bias]))
    ref.out_proj.weight.copy_(ours.w_o.weight)
    ref.out_proj.bias.copy_(ours.w_o.bias)

x = torch.randn(2, 5, d_model)
padding = torch.tensor([[False] * 5, [False, False, False, True, True]])  # 2nd sentence has 3 tokens
with torch.no_grad():
    mine = ours(x, x, x, key_padding_mask=padding)
    theirs, _ = ref(x, x, x, key_padding_mask=padding, need_weights=False)
print("output shape:", tuple(mine.shape))
torch.testing.assert_close(mine, theirs)
print("max abs difference < 1e-6:", (mine - theirs).abs().max().item() < 1e-6)


class TutorialStyleAttention(MultiHeadAttention):
    # a forward common in older tutorials: heads reshaped but never transposed or merged, and a method it never defined
    def forward(self, query, key, value, mask=None):
        batch = query.size(0)
        q = self.w_q(query).view(batch, -1, self.num_heads, self.d_k)
        k = self.w_k(key).view(batch, -1, self.num_heads, self.d_k)
        v = self.w_v(value).view(batch, -1, self.num_heads, self.d_k)
        return self.w_o(self.scaled_dot_product_attention(q, k, v, mask))


try:
    TutorialStyleAttention(d_model, heads)(x, x, x)
except AttributeError as err:
    print(type(err).__name__ + ":", err)
