import torch
import torch.nn.functional as F

# A mixture of experts in outline: tokens sorted by expert, one weight matrix per expert
torch.manual_seed(0)
tokens_per_expert = torch.tensor([5, 0, 11, 16])  # an expert may get no tokens
offs = tokens_per_expert.cumsum(0).to(torch.int32)  # where each expert's rows end
x = torch.randn(int(tokens_per_expert.sum()), 64, dtype=torch.bfloat16)
experts = torch.randn(4, 64, 32, dtype=torch.bfloat16)

out = F.grouped_mm(x, experts, offs=offs)  # one call instead of a loop over experts
starts = [0] + offs[:-1].tolist()
loop = torch.cat([x[s:e].float() @ experts[i].float() for i, (s, e) in enumerate(zip(starts, offs.tolist()))])
error = ((out.float() - loop).norm() / loop.norm()).item()
print(f"F.grouped_mm: {tuple(out.shape)} {out.dtype}, matches the loop over experts (error under 1 %): {error < 0.01}")

# The float8 and MX version, and whether this torch has a CPU kernel for it
print("F.scaled_grouped_mm:", hasattr(F, "scaled_grouped_mm"),
      "| CPU kernel:", torch._C._dispatch_has_kernel_for_dispatch_key("aten::_scaled_grouped_mm_v2", "CPU"))
print("F.scaled_addmm:", hasattr(F, "scaled_addmm"))
