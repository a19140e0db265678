import re
import subprocess
import sys
import warnings

import torch
from torch import nn

with warnings.catch_warnings():
    # executorch 1.5 reads its bundled files with importlib.resources' legacy functions (read_text,
    # open_text, read_binary), which warn as deprecated in Python 3.11; the torch 2.13 modules it
    # imports warn that torch.jit.script_method is deprecated. Python's default filters hide both.
    warnings.filterwarnings("ignore", message=r"\w+ is deprecated\. Use files\(\) instead", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )
    from executorch.exir import to_edge_transform_and_lower
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e


def to_pte(module, example):
    """Export and serialize without a partitioner: every op runs on ExecuTorch's own kernels."""
    with warnings.catch_warnings():
        # Lowering uses a pytree check torch 2.13 deprecates; serializing reads a schema file the legacy way.
        warnings.filterwarnings("ignore", message=r"`isinstance\(treespec, LeafSpec\)` is deprecated", category=FutureWarning)
        warnings.filterwarnings("ignore", message=r"\w+ is deprecated\. Use files\(\) instead", category=DeprecationWarning)
        return to_edge_transform_and_lower(torch.export.export(module, example)).to_executorch().buffer


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
example = (torch.randn(8, 64),)
quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
prepared = prepare_pt2e(torch.export.export(model, example).module(), quantizer)
for _ in range(8):
    prepared(torch.randn(8, 64))
quantized = convert_pt2e(prepared)

# No XNNPACK: the quantize/dequantize ops stay in the graph, and each needs an out variant.
try:
    to_pte(quantized, example)
except RuntimeError as err:
    head, _, names = str(err).partition(": ")
    print(type(err).__name__, head + ":", sorted(re.findall(r"'([^']+)'", names)))  # a set: its order varies

import executorch.kernels.quantized  # noqa: E402,F401  loads the quantized kernels' out variants

pte = to_pte(quantized, example)
print(f"with executorch.kernels.quantized imported: {len(pte) / 1024:.1f} KiB program")

with open("model_portable.pte", "wb") as f:
    f.write(pte)

# The runtime needs the quantized kernels too: a process that has not imported them (as an app
# built without them) cannot load the program. It sets the warning filters of the imports above.
LOAD = r"""
import warnings
warnings.filterwarnings("ignore", message=r"\w+ is deprecated\. Use files\(\) instead", category=DeprecationWarning)
warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)
warnings.filterwarnings("ignore", message="This API is experimental")
from executorch.runtime import Runtime
try:
    Runtime.get().load_program("model_portable.pte").load_method("forward")
except RuntimeError as err:
    print(type(err).__name__, err)
"""
child = subprocess.run([sys.executable, "-c", LOAD], capture_output=True, text=True)
print("a process without them:", child.stdout.strip())
print("  its log:", next(line.split("] ", 1)[1] for line in child.stderr.splitlines() if "Missing operator" in line))

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="This API is experimental")  # executorch.runtime says so on import
    from executorch.runtime import Runtime

forward = Runtime.get().load_program("model_portable.pte").load_method("forward")
x = torch.randn(8, 64)
out = forward.execute([x])[0]
with torch.no_grad():
    ref = model(x)
print(f"this process: output {tuple(out.shape)}, relative L2 error vs float {((out - ref).norm() / ref.norm()).item():.3f}")
