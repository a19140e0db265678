import warnings

import torch
from torch import nn
from torch.ao.quantization import (
    DeQuantStub,
    MinMaxObserver,
    PerChannelMinMaxObserver,
    QConfig,
    QuantStub,
)

torch.manual_seed(0)
ignore = [
    # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (see the overview page).
    dict(message="torch.ao.quantization is deprecated", category=DeprecationWarning),
    dict(message="torch.quantize_per_tensor", category=UserWarning),
]

# Activations: per tensor, affine, 7-bit (what reduce_range=True means on x86), written explicitly.
activation = MinMaxObserver.with_args(dtype=torch.quint8, quant_min=0, quant_max=127)
# Weights: one symmetric scale per output channel needs the per-channel observer.
per_channel = QConfig(
    activation=activation,
    weight=PerChannelMinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_channel_symmetric),
)
wrong = QConfig(
    activation=activation,
    weight=MinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_channel_symmetric),
)


def build():
    return nn.Sequential(QuantStub(), nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4), DeQuantStub()).eval()


def quantize(model, calibration):
    with warnings.catch_warnings():
        for rule in ignore:
            warnings.filterwarnings("ignore", **rule)
        prepared = torch.ao.quantization.prepare(model)
        prepared(calibration)
        return torch.ao.quantization.convert(prepared)


model = build()
model.qconfig = wrong
try:
    quantize(model, torch.randn(64, 16))
except NotImplementedError as err:
    print(type(err).__name__, " ".join(str(err).split()))

# Per-module: the whole model per tensor, only the first Linear per channel.
model = build()
model.qconfig = QConfig(activation=activation, weight=MinMaxObserver.with_args(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric))
model[1].qconfig = per_channel
q = quantize(model, torch.randn(64, 16))
for index in (1, 3):
    print(f"layer {index}: {type(q[index]).__name__} weight {q[index].weight().qscheme()}")
