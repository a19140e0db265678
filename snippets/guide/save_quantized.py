import io
import warnings

import torch
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, quantize_

from reference_impl.quantization import require_quantized


def make_model():
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


def quantize(model):
    with warnings.catch_warnings():
        # torch 2.13 deprecates torch.ao.quantization and the quantized dtypes (quantization pages).
        warnings.filterwarnings("ignore", message="torch.ao.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
        return torch.ao.quantization.quantize_dynamic(model.eval(), {nn.Linear}, dtype=torch.qint8)


torch.manual_seed(0)
trained = make_model()  # imagine a trained model here
quantized = quantize(trained)
require_quantized(trained, quantized)
buffer = io.BytesIO()
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
    torch.save(quantized.state_dict(), buffer)  # the int8 weights are packed into the state_dict
print("saved keys:", list(quantized.state_dict())[:3], "...")


def load(into):
    buffer.seek(0)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
        # torch.load rebuilds quantized tensors through the deprecated TypedStorage internally.
        warnings.filterwarnings("ignore", message="TypedStorage is deprecated", category=UserWarning)
        into.load_state_dict(torch.load(buffer, weights_only=True))
    return into


# Wrong: load the quantized state_dict into a fresh float model.
try:
    load(make_model())
except RuntimeError as err:
    print(type(err).__name__, "\n  ".join(line.strip() for line in str(err).splitlines()))

# Right: build the fresh model, quantize it the same way, then load.
restored = load(quantize(make_model()))
x = torch.randn(8, 16)
with torch.no_grad():
    print("restored output equals saved model's:", torch.equal(restored(x), quantized(x)))

# torchao: the same order. Quantize the fresh model with the same config, then load.
saved = make_model()
quantize_(saved, Int8DynamicActivationInt8WeightConfig())
buffer = io.BytesIO()
torch.save(saved.state_dict(), buffer)
buffer.seek(0)
fresh = make_model()
quantize_(fresh, Int8DynamicActivationInt8WeightConfig())
fresh.load_state_dict(torch.load(buffer, weights_only=True))
with torch.no_grad():
    print("torchao:", type(fresh[0].weight).__name__, "weights, output equal:", torch.equal(fresh(x), saved(x)))
