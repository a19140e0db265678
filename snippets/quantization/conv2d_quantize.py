import copy
import warnings

import torch
from torch import nn
from torch.ao.quantization import DeQuantStub, QuantStub
from torchao.quantization import (
    Int8DynamicActivationInt8WeightConfig,
    IntxWeightOnlyConfig,
    quantize_,
)

torch.manual_seed(0)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = QuantStub()  # only the static flow uses the stubs; elsewhere they pass x through
        self.conv = nn.Conv2d(3, 8, 3)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(8 * 6 * 6, 10)
        self.dequant = DeQuantStub()

    def forward(self, x):
        return self.dequant(self.fc(self.flatten(self.relu(self.conv(self.quant(x))))))


def kind(module):
    """The module's class, and the class of its weight where the weight is a tensor."""
    text = f"{type(module).__module__}.{type(module).__name__}"
    if isinstance(getattr(module, "weight", None), torch.Tensor):
        text += f" (weight: {type(module.weight).__name__})"
    return text


def show(title, model):
    print(title)
    print("  conv:", kind(model.conv))
    print("  fc:  ", kind(model.fc))


def relative_error(model):
    with torch.no_grad():
        return ((model(images) - reference).norm() / reference.norm()).item()


model = ConvNet().eval()  # imagine a trained model here
images = torch.randn(16, 3, 8, 8)
with torch.no_grad():
    reference = model(images)

# 1. Dynamic quantization: Conv2d is not in its mapping, so it is skipped without a warning.
with warnings.catch_warnings():
    # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page).
    warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    dynamic = torch.ao.quantization.quantize_dynamic(copy.deepcopy(model), {nn.Conv2d, nn.Linear}, dtype=torch.qint8)
show("quantize_dynamic({nn.Conv2d, nn.Linear}):", dynamic)

# 2. torchao without a filter_fn: nn.Linear only.
linear_only = copy.deepcopy(model)
quantize_(linear_only, IntxWeightOnlyConfig(weight_dtype=torch.int8))
show("quantize_(IntxWeightOnlyConfig) without filter_fn:", linear_only)

# 3. torchao with a filter_fn that selects Conv2d too: both weights become int8.
weight_only = copy.deepcopy(model)
quantize_(
    weight_only,
    IntxWeightOnlyConfig(weight_dtype=torch.int8),
    filter_fn=lambda module, fqn: isinstance(module, (nn.Conv2d, nn.Linear)),
)
show("quantize_(IntxWeightOnlyConfig, filter_fn=Conv2d or Linear):", weight_only)
print(f"  relative error under 1 %: {relative_error(weight_only) < 0.01}")

# torchao 0.18 cannot quantize a convolution with a single input channel (a grayscale first layer):
try:
    quantize_(nn.Sequential(nn.Conv2d(1, 8, 3)), IntxWeightOnlyConfig(weight_dtype=torch.int8),
              filter_fn=lambda module, fqn: isinstance(module, nn.Conv2d))
except RuntimeError as error:
    print("Conv2d(1, 8, 3):", type(error).__name__, error)

# Not every config has a convolution kernel: this one accepts the Conv2d, then fails in forward.
dyn_act = copy.deepcopy(model)
quantize_(dyn_act, Int8DynamicActivationInt8WeightConfig(), filter_fn=lambda module, fqn: isinstance(module, nn.Conv2d))
print("Int8DynamicActivationInt8WeightConfig on Conv2d, weight:", type(dyn_act.conv.weight).__name__)
try:
    relative_error(dyn_act)
except NotImplementedError as error:
    print(" ", type(error).__name__, str(error).split(", types=")[0])

# 4. Static eager quantization (legacy): QuantStub/DeQuantStub and calibration; Conv2d becomes int8.
with warnings.catch_warnings():
    # The same two deprecations, and the x86 qconfig's reduce_range=True asks for quant_min/quant_max.
    warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    warnings.filterwarnings("ignore", message="Please use quant_min and quant_max", category=UserWarning)
    torch.backends.quantized.engine = "x86"
    static = copy.deepcopy(model)
    static.qconfig = torch.ao.quantization.get_default_qconfig("x86")
    torch.ao.quantization.prepare(static, inplace=True)  # inserts observers
    with torch.no_grad():
        static(torch.randn(256, 3, 8, 8))  # calibration: representative data
    torch.ao.quantization.convert(static, inplace=True)
    show("static eager (prepare, calibrate, convert):", static)
    print(f"  relative error under 5 %: {relative_error(static) < 0.05}, above weight-only's: "
          f"{relative_error(static) > relative_error(weight_only)}")
