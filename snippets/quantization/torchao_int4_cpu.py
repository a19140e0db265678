import copy

import torch
from torch import nn
from torchao.quantization import Int4WeightOnlyConfig, IntxWeightOnlyConfig, quantize_
from torchao.quantization.granularity import PerAxis, PerGroup

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 10)).eval()
x = torch.randn(8, 256)

# The int4 config most tutorials show needs a GPU kernel library:
try:
    quantize_(copy.deepcopy(model), Int4WeightOnlyConfig())
except ImportError as error:
    print(type(error).__name__, error)

# The int-x config stores int4 weights (in groups of 32) and runs on a CPU:
int4 = copy.deepcopy(model)
quantize_(int4, IntxWeightOnlyConfig(weight_dtype=torch.int4, granularity=PerGroup(32)))
print("Linear weights:", [type(m.weight).__name__ for m in int4 if isinstance(m, nn.Linear)])
with torch.no_grad():
    ref, out = model(x), int4(x)
print(f"int4: relative error of the output under 10 %: {((out - ref).norm() / ref.norm()).item() < 0.10}")

# It is not limited to nn.Linear: a filter_fn picks the modules, Conv2d included.
convnet = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.Flatten(), nn.Linear(16 * 30 * 30, 10)).eval()
image = torch.randn(2, 3, 32, 32)
with torch.no_grad():
    before = convnet(image)
quantize_(
    convnet,
    IntxWeightOnlyConfig(weight_dtype=torch.int8, granularity=PerAxis(0)),
    filter_fn=lambda module, fqn: isinstance(module, (nn.Conv2d, nn.Linear)),
)
print("Conv2d weight:", type(convnet[0].weight).__name__, "| Linear weight:", type(convnet[3].weight).__name__)
with torch.no_grad():
    after = convnet(image)
print(f"int8: relative error of the output under 1 %: {((after - before).norm() / before.norm()).item() < 0.01}")
