import copy
import io

import torch
from torch import nn
from torchao.prototype.quantization.int4 import PrototypeInt4WeightOnlyConfig
from torchao.quantization import IntxWeightOnlyConfig, quantize_
from torchao.quantization.granularity import PerGroup

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(1024, 1024)).to(torch.bfloat16).eval()
x = torch.randn(8, 1024, dtype=torch.bfloat16)
with torch.no_grad():
    reference = model(x)


def saved_megabytes(module):
    """Bytes of the state_dict as torch.save writes it: what a checkpoint of the model takes."""
    buffer = io.BytesIO()
    torch.save(module.state_dict(), buffer)
    return buffer.tell() / 1e6


print(f"bfloat16          {saved_megabytes(model):.2f} MB")
configs = {
    "int4 unpacked": IntxWeightOnlyConfig(weight_dtype=torch.int4, granularity=PerGroup(32)),
    # set_inductor_config=False: leave torch.compile's global settings as they are.
    "int4 packed": PrototypeInt4WeightOnlyConfig(group_size=32, set_inductor_config=False),
}
for name, config in configs.items():
    quantized = copy.deepcopy(model)
    quantize_(quantized, config)
    weight = quantized[0].weight
    with torch.no_grad():
        error = ((quantized(x).float() - reference.float()).norm() / reference.float().norm()).item()
    print(f"{name:17} {saved_megabytes(quantized):.2f} MB  {type(weight).__name__}: "
          f"values {weight.qdata.dtype} {tuple(weight.qdata.shape)}, output error {error:.1%}")
