import warnings

import torch
from torch import nn
from torch.ao.nn.quantized import FloatFunctional
from torch.ao.quantization import DeQuantStub, QuantStub

from reference_impl.quantization import require_quantized


class Residual(nn.Module):
    def __init__(self, use_float_functional):
        super().__init__()
        self.quant, self.dequant = QuantStub(), DeQuantStub()
        self.fc = nn.Linear(16, 16)
        self.skip_add = FloatFunctional() if use_float_functional else None

    def forward(self, x):
        x = self.quant(x)
        y = self.fc(x)
        # `+` on two quantized tensors has no QuantizedCPU kernel; FloatFunctional.add becomes
        # QFunctional.add after convert, which adds and requantizes with an observed scale.
        out = self.skip_add.add(y, x) if self.skip_add is not None else y + x
        return self.dequant(out)


def static_quantize(model, calibration):
    with warnings.catch_warnings():
        # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview
        # page); the x86 qconfig's reduce_range=True asks for quant_min/quant_max instead.
        warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
        warnings.filterwarnings("ignore", message="Please use quant_min and quant_max", category=UserWarning)
        model.eval().qconfig = torch.ao.quantization.get_default_qconfig("x86")
        prepared = torch.ao.quantization.prepare(model)
        with torch.no_grad():
            prepared(calibration)
        return torch.ao.quantization.convert(prepared)


torch.manual_seed(0)
torch.backends.quantized.engine = "x86"
x = torch.randn(64, 16)
for use_ff in (False, True):
    model = Residual(use_ff)
    quantized = static_quantize(model, x)
    require_quantized(model, quantized)
    try:
        with torch.no_grad():
            out = quantized(x)
    except NotImplementedError as err:
        print(type(err).__name__, str(err).split(". ")[0])  # the rest lists dispatch keys
        continue
    print("skip_add after convert:", type(quantized.skip_add).__name__)
    with torch.no_grad():
        ref = model(x)
    print(f"relative L2 error vs float: {((out - ref).norm() / ref.norm()).item():.3f}")

# The quantized kernels come from an engine; "NoQEngine" in a message means none is selected.
print("supported engines:", torch.backends.quantized.supported_engines)
try:
    torch.backends.quantized.engine = "none"
except RuntimeError as err:
    print(type(err).__name__, err)
