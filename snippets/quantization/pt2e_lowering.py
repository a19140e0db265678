import re
import warnings
from collections import Counter

import torch
from torch import nn
from torch._inductor import config as inductor_config
from torch._inductor.utils import run_and_get_code

# The PT2E code that used to live in torch.ao.quantization is gone in torch 2.13:
try:
    import torch.ao.quantization.quantize_pt2e  # noqa: F401
except ModuleNotFoundError as error:
    print(type(error).__name__, error)

with warnings.catch_warnings():
    # Importing the x86 quantizer imports torch._inductor; with torch 2.13 the torch.utils.mkldnn it imports
    # warns that torch.jit.script_method is deprecated (2.14 and later do not; Python's default filters hide it).
    warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)
    from torchao.quantization.pt2e.lowering import lower_pt2e_quantized_to_x86
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
        X86InductorQuantizer,
        get_default_x86_inductor_quantization_config,
    )

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
example = (torch.randn(8, 64),)
exported = torch.export.export(model, example).module()
quantizer = X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())
prepared = prepare_pt2e(exported, quantizer)
for _ in range(8):
    prepared(torch.randn(8, 64))  # calibrate
quantized = convert_pt2e(prepared)


def kernels(freezing):
    """Compile the quantized graph and list the matmul kernels in Inductor's generated code."""
    torch._dynamo.reset()
    with inductor_config.patch(freezing=freezing), torch.no_grad(), warnings.catch_warnings():
        # Inductor's int8 linear lowering in torch 2.13 builds a tensor with torch.tensor(tensor),
        # which warns "To copy construct from a tensor ..." (its own code, not this script's).
        warnings.filterwarnings("ignore", message="To copy construct from a tensor", category=UserWarning)
        _, code = run_and_get_code(torch.compile(quantized), *example)
    calls = Counter(re.findall(r"\b(extern_kernels\.\w*mm\w*|torch\.ops\.\w+\.\w*(?:mm|linear)\w*)", "\n".join(code)))
    return ", ".join(f"{count} x {name}" for name, count in sorted(calls.items()))


print("compiled, freezing off:", kernels(freezing=False))
print("compiled, freezing on: ", kernels(freezing=True))

# torchao's helper runs the same freezing passes on the graph, without torch.compile:
with torch.no_grad(), warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="To copy construct from a tensor", category=UserWarning)
    # torch.export's run_decompositions deep-copies pytree specs, which warns in torch 2.13.
    warnings.filterwarnings("ignore", message=r"`isinstance\(treespec, LeafSpec\)` is deprecated", category=FutureWarning)
    lowered = lower_pt2e_quantized_to_x86(quantized, example)
ops = Counter(str(n.target) for n in lowered.graph.nodes if n.op == "call_function" and "linear" in str(n.target))
print("lower_pt2e_quantized_to_x86:", ", ".join(f"{count} x {op}" for op, count in sorted(ops.items())))
