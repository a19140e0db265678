import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import torch
from safetensors import safe_open
from safetensors.torch import save_file
from torch import nn
from torchao.prototype.safetensors.safetensors_support import (
    flatten_tensor_state_dict,
    unflatten_tensor_state_dict,
)
from torchao.quantization import IntxWeightOnlyConfig, quantize_

from reference_impl.checkpoint import save_atomic
from reference_impl.quantization import replaced_modules


def make_model():
    return nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 4)).eval()


def first_problem(error):
    """The first line of a load_state_dict error, and what went wrong for the first tensor."""
    lines = str(error).splitlines()
    return f"{lines[0]} {lines[1].strip().split(', whose')[0]}: {lines[1].split('an exception occurred : ')[-1]}"


config = IntxWeightOnlyConfig(weight_dtype=torch.int8)
torch.manual_seed(0)
model = make_model()  # imagine a trained model here
quantize_(model, config)
x = torch.randn(8, 64)
with torch.no_grad():
    expected = model(x)
folder = Path(tempfile.mkdtemp())
path = save_atomic(model.state_dict(), folder / "model_int8.pt")  # temporary file, fsync, os.replace
print("saved:", {name: type(t).__name__ for name, t in model.state_dict().items()})


def check(label, restored):
    with torch.no_grad():
        same = torch.equal(restored(x), expected)
    print(f"{label}: weights {type(restored[0].weight).__name__}, output equal: {same}")


def load():
    # weights_only=True loads torchao's tensors once torchao is imported (it registers them as safe).
    return torch.load(path, weights_only=True)


# Wrong: the quantized state_dict copied into a float model.
try:
    make_model().load_state_dict(load())
except RuntimeError as error:
    print("quantized into float:", type(error).__name__, first_problem(error))

# Wrong: a float state_dict copied into a quantized model.
float_state = make_model().state_dict()
quantized = make_model()
quantize_(quantized, config)
try:
    quantized.load_state_dict(float_state)
except RuntimeError as error:
    print("float into quantized:", type(error).__name__, first_problem(error))
# ... and with assign=True it "works": the float tensors replace the quantized ones, without a word.
quantized.load_state_dict(float_state, assign=True)
print("float into quantized, assign=True: weights", type(quantized[0].weight).__name__,
      "| quantized modules:", replaced_modules(make_model(), quantized))

# Right, torchao's way: an empty float model on the meta device takes the quantized tensors as they are.
with torch.device("meta"):
    fresh = make_model()
fresh.load_state_dict(load(), assign=True)
check("meta model + assign=True", fresh)

# Right as well: quantize a fresh model with the same config, then load into it.
fresh = make_model()
quantize_(fresh, config)
fresh.load_state_dict(load())
check("quantize_ then load_state_dict", fresh)

# A process that has not imported torchao does not know its tensor classes.
for code in ("import torch", "import torch, torchao"):
    load = f"{code}; print(type(torch.load({str(path)!r}, weights_only=True)['0.weight']).__name__)"
    run = subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, check=False)
    problem = [line.strip().split(" was not")[0] for line in run.stderr.splitlines() if "Unsupported global" in line]
    print(f"{code}: {run.stdout.strip() or problem[0]}")

# safetensors stores plain tensors only: a tensor subclass fails.
try:
    with warnings.catch_warnings():
        # safetensors looks for shared storage through the deprecated TypedStorage on the way to the error.
        warnings.filterwarnings("ignore", message="TypedStorage is deprecated", category=UserWarning)
        save_file(model.state_dict(), folder / "model.safetensors")
except RuntimeError as error:
    print("safetensors save_file:", type(error).__name__, error)

# torchao's helpers split each subclass tensor into plain tensors plus JSON metadata.
tensors, metadata = flatten_tensor_state_dict(model.state_dict())
print("stored as plain tensors:", {name: str(t.dtype).removeprefix("torch.") for name, t in tensors.items() if name.startswith("0.")})
temporary = folder / ".model.safetensors.tmp"
save_file(tensors, temporary, metadata=metadata)
os.replace(temporary, folder / "model.safetensors")  # atomic, like save_atomic
with safe_open(folder / "model.safetensors", framework="pt") as f:
    state, leftover = unflatten_tensor_state_dict({name: f.get_tensor(name) for name in f.keys()}, f.metadata())
with torch.device("meta"):
    fresh = make_model()
fresh.load_state_dict(state, assign=True)
check("safetensors + assign=True", fresh)
