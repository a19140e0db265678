import warnings
from collections import Counter

import torch
from torch import nn

with warnings.catch_warnings():
    # executorch 1.5 reads its bundled files with importlib.resources' legacy functions (read_text,
    # open_text, read_binary), which warn as deprecated in Python 3.11; the torch 2.13 modules it
    # imports warn that torch.jit.script_method is deprecated. Python's default filters hide both.
    warnings.filterwarnings("ignore", message=r"\w+ is deprecated\. Use files\(\) instead", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer,
        get_symmetric_quantization_config,
    )
    from executorch.exir import to_edge_transform_and_lower
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e


def ops(graph_module):
    return Counter(n.target.__name__ for n in graph_module.graph.nodes if n.op == "call_function")


def to_pte(module, example):
    """Export, hand every op XNNPACK takes to its delegate, and serialize an ExecuTorch program (.pte)."""
    with warnings.catch_warnings():
        # Lowering uses a pytree check torch 2.13 deprecates; serializing reads a schema file the legacy way.
        warnings.filterwarnings("ignore", message=r"`isinstance\(treespec, LeafSpec\)` is deprecated", category=FutureWarning)
        warnings.filterwarnings("ignore", message=r"\w+ is deprecated\. Use files\(\) instead", category=DeprecationWarning)
        edge = to_edge_transform_and_lower(torch.export.export(module, example), partitioner=[XnnpackPartitioner()])
        return edge.exported_program().graph_module, edge.to_executorch().buffer


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).eval()
example = (torch.randn(8, 64),)

# 1. capture the graph, 2. insert observers for XNNPACK's int8 scheme, 3. calibrate, 4. quantize/dequantize ops
quantizer = XNNPACKQuantizer().set_global(get_symmetric_quantization_config())
prepared = prepare_pt2e(torch.export.export(model, example).module(), quantizer)
for _ in range(8):
    prepared(torch.randn(8, 64))
quantized = convert_pt2e(prepared)
qdq = sum(count for op, count in ops(quantized).items() if "quantize" in op)
print("quantize/dequantize ops after convert_pt2e:", qdq)
if qdq == 0:
    raise RuntimeError("convert_pt2e quantized nothing: check the quantizer's set_global")

# 5. lower to XNNPACK and serialize; the float model the same way, to compare
float_graph, float_pte = to_pte(model, example)
int8_graph, int8_pte = to_pte(quantized, example)
for name, graph in (("float", float_graph), ("int8", int8_graph)):
    print(f"{name} program after lowering, ops in its graph:", dict(ops(graph)))
print(f".pte size: float {len(float_pte) / 1024:.1f} KiB, int8 {len(int8_pte) / 1024:.1f} KiB")
with open("model_int8.pte", "wb") as f:
    f.write(int8_pte)

# 6. run the file with ExecuTorch's runtime, as the app on the device does
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="This API is experimental")  # executorch.runtime says so on import
    from executorch.runtime import Runtime

forward = Runtime.get().load_program("model_int8.pte").load_method("forward")
x = torch.randn(8, 64)
out = forward.execute([x])[0]
with torch.no_grad():
    ref = model(x)
print(f"ExecuTorch output {tuple(out.shape)}, relative L2 error vs float: {((out - ref).norm() / ref.norm()).item():.3f}")
