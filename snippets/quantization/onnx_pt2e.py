import tempfile
import warnings
from collections import Counter
from pathlib import Path

import onnx
import onnxruntime as ort
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

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).eval()  # imagine a trained model
example = (torch.randn(8, 64),)

# PT2E: export, insert observers, calibrate, convert to quantize/dequantize ops (static quantization page)
quantizer = X86InductorQuantizer().set_global(get_default_x86_inductor_quantization_config())
prepared = prepare_pt2e(torch.export.export(model, example).module(), quantizer)
for _ in range(8):
    prepared(torch.randn(8, 64))
quantized = convert_pt2e(prepared)

folder = Path(tempfile.mkdtemp())
with warnings.catch_warnings():
    # torch 2.13's exporter copies the model with a pytree API it has itself deprecated.
    warnings.filterwarnings("ignore", message="`isinstance\\(treespec, LeafSpec\\)` is deprecated", category=FutureWarning)
    # Export the quantized graph again with torch.export: a converted graph module reports
    # training mode (and refuses .eval()), which the ONNX exporter warns about.
    program = torch.export.export(quantized, example)
    torch.onnx.export(program, example, folder / "pt2e.onnx", dynamo=True, verbose=False, external_data=False)

# The TorchScript-based exporter (dynamo=False, the default before torch 2.9) cannot export it.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="You are using the legacy TorchScript-based ONNX export", category=DeprecationWarning)
    try:
        torch.onnx.export(quantized, example, folder / "legacy.onnx", dynamo=False)
    except NotImplementedError as err:
        print("dynamo=False:", type(err).__name__, str(err).strip().splitlines()[0])

graph = onnx.load(folder / "pt2e.onnx").graph
print("ONNX ops:", dict(sorted(Counter(node.op_type for node in graph.node).items())))
stored = Counter()
for tensor in graph.initializer:
    stored[onnx.helper.tensor_dtype_to_np_dtype(tensor.data_type).name] += len(onnx.numpy_helper.to_array(tensor).ravel())
print("values stored, by dtype:", dict(sorted(stored.items())))

# ONNX Runtime fuses DequantizeLinear -> Gemm -> QuantizeLinear into its int8 QGemm kernel; the
# optimized graph it saves shows what it runs.
options = ort.SessionOptions()
options.optimized_model_filepath = str(folder / "pt2e.optimized.onnx")
options.log_severity_level = 3  # errors only: saving the optimized graph logs a warning that it is machine-specific
session = ort.InferenceSession(folder / "pt2e.onnx", options, providers=["CPUExecutionProvider"])
optimized = onnx.load(folder / "pt2e.optimized.onnx").graph
print("ops ONNX Runtime runs:", dict(sorted(Counter(node.op_type for node in optimized.node).items())))

x = torch.randn(8, 64)
(ort_out,) = session.run(None, {session.get_inputs()[0].name: x.numpy()})
with torch.no_grad():
    ref, pt2e_out = model(x), quantized(x)


def error(out):
    return ((torch.as_tensor(out) - ref).norm() / ref.norm()).item()


print(f"relative L2 error vs float: PT2E in PyTorch {error(pt2e_out):.3f}, ONNX Runtime {error(ort_out):.3f}")
