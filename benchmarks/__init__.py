"""The benchmark command: measurements a reader can re-run.

``python -m benchmarks [--quick] [--device cpu|cuda] [--threads N] [--cases ...] [--out DIR]``
writes ``benchmarks/results/<device>/<case>.json`` and ``<case>.md`` (a table and a
one-line environment stamp, ready to include in a page), plus ``<case>.ja.md``, the same
table in Japanese. Both tables are rendered from the JSON with the keyed texts of module
`catalog` (``--render-only`` rewrites them from the committed JSON without measuring),
for these cases:

- ``storage``: bytes per element and per model for each dtype, against the limit;
- ``matmul``: float32 / float16 / bfloat16 (and TF32 on CUDA) matmul with TFLOP/s;
- ``dynamic_int8``: ``quantize_dynamic`` int8 vs float32 for Linear, LSTM and RNNCell;
- ``torchao``: torchao int8 dynamic and weight-only configs, eager and compiled;
- ``amp_step``: a training step in float32 vs autocast, and the GradScaler's cost;
- ``reference``: reference_impl's readable code vs PyTorch's kernels;
- ``profiler_overhead``: a model timed directly vs inside ``torch.profiler``;
- ``onnx_runtime``: onnxruntime float32 vs its dynamic int8 model;
- ``pt2e``: a PT2E-quantized model run eager and compiled (with and without freezing) vs float32;
- ``gpu_matmul`` (``--device cuda`` only): float32, TF32, float16, bfloat16 and float8
  (``torch.nn.functional.scaled_mm``, operands quantized beforehand; the scaling is its own row)
  matmul at a few sizes, CUDA events cross-checked against a synchronized loop;
- ``gpu_transformer_step`` (``--device cuda`` only): the training step of four transformer layers
  at d_model 4096 on 16,384 tokens in float32, TF32, float16 + GradScaler and bfloat16, with
  peak memory per variant (its spread limit is 1.10).

``python -m benchmarks.probes`` (GPU only, ``--dry-run`` on a CPU) runs the probes that decide the
support matrix's cells no run has checked yet.

The method (module `timing`): one process, warm-up, one
thread, the two variants alternated round by round, the median of the per-round
ratios and their spread; a spread over 1.3 (1.10 for the GPU transformer step) is flagged as
too noisy to publish.
"""

from benchmarks.cases import CASES
from benchmarks.config import BenchConfig
from benchmarks.environment import collect_environment, isa_class
from benchmarks.report import CaseResult
from benchmarks.runner import run_bench
from benchmarks.timing import SPREAD_LIMIT, Comparison, compare

__all__ = [
    "CASES",
    "SPREAD_LIMIT",
    "BenchConfig",
    "CaseResult",
    "Comparison",
    "collect_environment",
    "compare",
    "isa_class",
    "run_bench",
]
