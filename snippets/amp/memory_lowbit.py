"""torchao's 8-bit, 4-bit and float8 AdamW on a CPU: optimizer-state bytes, loss, accuracy, time per step."""

import time
import warnings

import torch
from sklearn.datasets import load_digits
from torch import nn
from torchao.optim import AdamW4bit, AdamW8bit, AdamWFp8

warnings.simplefilter("error")
torch.set_num_threads(1)  # one thread: the process's CPU time is the time of the steps
# The optimizers compile their step with torch.compile, whose import uses a deprecated TorchScript API.
warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)

digits = load_digits()
x = torch.tensor(digits.data, dtype=torch.float32) / 16
y = torch.tensor(digits.target)
x_train, y_train, x_test, y_test = x[:1500], y[:1500], x[1500:], y[1500:]


def state_bytes(tensor):
    """Bytes of a tensor's storage; a torchao state is a tensor subclass: add up the tensors inside it."""
    if hasattr(tensor, "__tensor_flatten__"):
        names, _ = tensor.__tensor_flatten__()
        return sum(state_bytes(getattr(tensor, name)) for name in names)
    return tensor.untyped_storage().nbytes()


# state bytes, their ratio to AdamW's, final loss, test accuracy, CPU milliseconds per step
print(f"{'optimizer':10} {'bytes':>6} {'ratio':>5} {'loss':>4} {'acc':>5} {'CPU ms':>6}")
baseline = None
for optimizer_class in (torch.optim.AdamW, AdamW8bit, AdamW4bit, AdamWFp8):
    torch.manual_seed(0)
    # Both weights 64×64 (4,096 values, the smallest torchao quantizes): one compiled step per optimizer.
    # The 10 digits use the first 10 of the 64 outputs.
    model = nn.Sequential(nn.Linear(64, 64, bias=False), nn.ReLU(), nn.Linear(64, 64, bias=False))
    opt = optimizer_class(model.parameters(), lr=1e-2)
    for i in range(31):  # full-batch steps; the first one compiles and is not timed
        if i == 1:
            start = time.process_time()  # CPU time: other programs' work does not count
        loss = nn.functional.cross_entropy(model(x_train), y_train)
        loss.backward()
        opt.step()
        opt.zero_grad()
    ms_per_step = (time.process_time() - start) / 30 * 1000
    size = sum(state_bytes(v) for s in opt.state.values() for v in s.values())
    baseline = baseline or size
    with torch.no_grad():
        accuracy = (model(x_test).argmax(1) == y_test).float().mean().item()
    name = optimizer_class.__name__
    print(f"{name:10} {size:6,} {size / baseline:5.2f} {loss.item():4.2f} {accuracy:5.1%} {ms_per_step:6.1f}")
