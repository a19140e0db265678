import warnings
from collections import Counter

import torch
from torch import nn

with warnings.catch_warnings():
    # Importing the x86 quantizer imports torch._inductor; with torch 2.13 the torch.utils.mkldnn it imports
    # warns that torch.jit.script_method is deprecated (2.14 and later do not; Python's default filters hide it).
    warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from torchao.quantization.pt2e.quantizer.x86_inductor_quantizer import (
        X86InductorQuantizer,
        get_default_x86_inductor_quantization_config,
    )



def count_qdq(graph_module):
    """Number of quantize/dequantize calls in a converted graph (0 means nothing was quantized)."""
    return sum(1 for n in graph_module.graph.nodes if n.op == "call_function" and "quantize" in str(n.target))


def require_quantized(graph_module):
    count = count_qdq(graph_module)
    if count == 0:
        raise RuntimeError("convert_pt2e returned a graph without quantize/dequantize ops: nothing was quantized")
    return count


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
example = (torch.randn(8, 64),)

# 1. capture the graph; without dynamic_shapes the batch size 8 would be baked in
batch = torch.export.Dim("batch", min=2)
exported = torch.export.export(model, example, dynamic_shapes=({0: batch},)).module()
quantizer = X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())
prepared = prepare_pt2e(exported, quantizer)  # 2. insert observers
for _ in range(8):
    prepared(torch.randn(8, 64))  # 3. calibrate
quantized = convert_pt2e(prepared)  # 4. observers -> quantize/dequantize ops

require_quantized(quantized)  # before any error figure: prove the graph was quantized
ops = Counter(str(n.target) for n in quantized.graph.nodes if n.op == "call_function")
for op, count in sorted(ops.items()):
    print(f"{count} x {op}")
x = torch.randn(32, 64)
with torch.no_grad():
    ref, out = model(x), quantized(x)
print(f"relative L2 error vs float: {((out - ref).norm() / ref.norm()).item():.3f}")

# A quantizer without .set_global(...) has no config for any op: the flow runs, quantizes nothing.
bare = convert_pt2e(prepare_pt2e(torch.export.export(model, example).module(), X86InductorQuantizer()))
print("X86InductorQuantizer() without set_global:", count_qdq(bare), "quantize/dequantize ops")
try:
    require_quantized(bare)
except RuntimeError as err:
    print(type(err).__name__, err)

fixed = torch.export.export(model, example).module()  # no dynamic_shapes
try:
    fixed(x)
except AssertionError as err:
    print(type(err).__name__, err)
