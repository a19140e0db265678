import torch
from torch import nn


def without_path(error):
    """The message up to the file path it ends with (the path differs from machine to machine)."""
    return str(error).split(" (")[0]


# The imports of the PT2E tutorials for phones, as torch 2.13 and torchao 0.18 answer them
try:
    from torch.ao.quantization.quantizer.xnnpack_quantizer import XNNPACKQuantizer  # noqa: F401
except ImportError as error:
    print(f"{type(error).__name__}: {without_path(error)}")
try:
    from torch.ao.quantization import move_exported_model_to_eval  # noqa: F401
except ImportError as error:
    print(f"{type(error).__name__}: {without_path(error)}")
try:
    from torchao.quantization.pt2e.quantizer import XNNPACKQuantizer  # noqa: F401
except ImportError as error:
    print(f"{type(error).__name__}: {without_path(error)}")

from torchao.quantization.pt2e import move_exported_model_to_eval  # where it lives now


def modes(graph_module):
    """The training flag each batch_norm and dropout call of an exported graph was recorded with."""
    flags = {}
    for node in graph_module.graph.nodes:
        if node.target is torch.ops.aten.batch_norm.default:
            flags["batch_norm"] = node.args[5]
        elif node.target is torch.ops.aten.dropout.default:
            flags["dropout"] = node.args[2]
    return flags


torch.manual_seed(0)
# exported in training mode, as QAT exports it (prepare_qat_pt2e trains the exported graph)
model = nn.Sequential(nn.Linear(16, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.5), nn.Linear(32, 4))
exported = torch.export.export(model, (torch.randn(8, 16),)).module()
x = torch.randn(8, 16)
print("exported:", modes(exported), "| same output twice:", torch.equal(exported(x), exported(x)))
try:
    exported.eval()
except NotImplementedError as error:
    print(f"{type(error).__name__}: {error}")
move_exported_model_to_eval(exported)
print("after move_exported_model_to_eval:", modes(exported), "| same output twice:", torch.equal(exported(x), exported(x)))
