"""The shapes of a mixture of experts' grouped matmuls: what decides whether MXFP8 can pay off."""

# Sizes from torchtitan's model definitions (commit 7e10d60, the one torchtitan#2086 links):
# dim is K of the first matmul, the expert's hidden size is N (and K of the down projection).
MODELS = {
    "DeepSeek-V3 16B": dict(dim=2048, hidden=1408, experts=64, top_k=6),
    "Qwen3 30B-A3B": dict(dim=2048, hidden=768, experts=128, top_k=8),
    "Qwen3 235B-A22B": dict(dim=4096, hidden=1536, experts=128, top_k=8),
    "DeepSeek-V3 671B": dict(dim=7168, hidden=2048, experts=256, top_k=8),
    "Llama 4 Scout": dict(dim=5120, hidden=8192, experts=16, top_k=1),
}
BENCHMARK_TOKENS = 16 * 8192  # per GPU and step in torchao's MoE benchmarks: local batch 16, sequence 8192
SMALL_TOKENS = 2 * 4096  # a smaller step: local batch 2, sequence 4096


def rows_per_expert(tokens, experts, top_k):
    """M of each expert's matmul: the tokens routed to it, with balanced routing. Expert parallelism
    over P GPUs multiplies it by P (each GPU holds 1/P of the experts and gets their tokens from all P)."""
    return tokens * top_k // experts


def flops_per_quantized_value(k, n):
    """An (M, K) @ (K, N) matmul does 2*M*K*N flops; MXFP8 quantizes its M*K input and, in the
    backward pass, the M*N gradient. Per value quantized: 2*K*N / (K + N), whatever M is."""
    return 2 * k * n / (k + n)


print(f"rows per expert: at {BENCHMARK_TOKENS:,} / {SMALL_TOKENS:,} tokens per GPU")
print(f"{'model':17} {'K':>5} {'N':>5} {'experts':>7} {'top-k':>5} {'rows per expert':>16} {'flops per quantized value':>26}")
for name, m in MODELS.items():
    rows = [rows_per_expert(tokens, m["experts"], m["top_k"]) for tokens in (BENCHMARK_TOKENS, SMALL_TOKENS)]
    print(f"{name:17} {m['dim']:5} {m['hidden']:5} {m['experts']:7} {m['top_k']:5} "
          f"{rows[0]:8,} / {rows[1]:5,} {flops_per_quantized_value(m['dim'], m['hidden']):26,.0f}")
