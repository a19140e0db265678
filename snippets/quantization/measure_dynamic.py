import platform
import warnings

import torch
from torch import nn

from reference_impl.quantization import compare_models

torch.manual_seed(0)
print(platform.processor() or platform.machine(), "torch", torch.__version__,
      "engine", torch.backends.quantized.engine)
cases = {
    "Linear 1024, batch 1": (nn.Sequential(nn.Linear(1024, 1024)), torch.randn(1, 1024)),
    "Linear 1024, batch 128": (nn.Sequential(nn.Linear(1024, 1024)), torch.randn(128, 1024)),
    "RNNCell 256->512, one step, batch 1": (nn.Sequential(nn.RNNCell(256, 512)), torch.randn(1, 256)),
    "RNNCell 256->512, one step, batch 32": (nn.Sequential(nn.RNNCell(256, 512)), torch.randn(32, 256)),
}
for name, (model, x) in cases.items():
    model.eval()
    with warnings.catch_warnings():
        # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page).
        warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
        quantized = torch.ao.quantization.quantize_dynamic(model, {nn.Linear, nn.RNNCell}, dtype=torch.qint8)
    report = compare_models(model, quantized, x, rounds=5, num_threads=1)
    print(f"{name:38} speed-up {report.speedup:.2f}x "
          f"(rounds {min(report.speedups):.2f}-{max(report.speedups):.2f}), rel. error {report.rel_l2:.1e}")
