import warnings

import torch
from torch import nn
from torch.ao.quantization import DeQuantStub, QuantStub

torch.manual_seed(0)
torch.backends.quantized.engine = "x86"
x = torch.randn(8, 16)


def static_quantize(model, calibration=None):
    with warnings.catch_warnings():
        # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview
        # page); the x86 qconfig's reduce_range=True asks for quant_min/quant_max instead.
        warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
        warnings.filterwarnings("ignore", message="Please use quant_min and quant_max", category=UserWarning)
        model.eval().qconfig = torch.ao.quantization.get_default_qconfig("x86")
        prepared = torch.ao.quantization.prepare(model)
        if calibration is not None:
            with torch.no_grad():
                prepared(calibration)
        return torch.ao.quantization.convert(prepared)


# 1. No QuantStub: the int8 Linear receives a float tensor.
no_stub = static_quantize(nn.Sequential(nn.Linear(16, 4)), calibration=x)
try:
    no_stub(x)
except NotImplementedError as err:
    print(type(err).__name__, str(err).splitlines()[0][:140], "...")

# 2. No calibration: convert() only warns (recorded here), and the model runs with made-up scales.
float_model = nn.Sequential(QuantStub(), nn.Linear(16, 4), DeQuantStub())
reference = float_model.eval()(x)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    uncalibrated = static_quantize(float_model)
print(" ".join(str(next(w for w in caught if "observer" in str(w.message)).message).split()))
print(uncalibrated[0])
with torch.no_grad():
    print("output:", uncalibrated(x)[0].tolist(), " float:", [round(v, 3) for v in reference[0].tolist()])
