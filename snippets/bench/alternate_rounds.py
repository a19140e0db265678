# Compare two variants the way the benchmark command does: warm-up, one thread,
# alternating rounds, median of the per-round ratios and their spread.
# Timings vary from run to run, so the page shows no output for it.
import torch

from benchmarks import compare

torch.manual_seed(0)
a32 = torch.randn(512, 512)
b32 = torch.randn(512, 512)
a16, b16 = a32.bfloat16(), b32.bfloat16()

result = compare(
    ("float32", lambda: a32 @ b32),
    {"bfloat16": lambda: a16 @ b16},
    rounds=7,
    min_time=0.1,
    threads=1,
)["bfloat16"]
print("per-round ratios:", [round(r, 2) for r in result.ratios])
print(f"median {result.ratio:.2f}x, spread {result.spread:.2f}, too noisy: {result.noisy}")
