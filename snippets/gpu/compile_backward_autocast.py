import warnings

import torch
import torch._functorch.config  # not imported by `import torch`
from torch import nn
from torch.nn import functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(64, 128)
        self.sensitive = nn.Linear(128, 128)  # a layer kept in float32 on purpose
        self.out = nn.Linear(128, 10)

    def forward(self, x):
        h = torch.relu(self.inp(x))  # bfloat16 under autocast
        with torch.autocast("cpu", enabled=False):  # a float32 island inside the autocast region
            h = torch.relu(self.sensitive(h.float()))
        return self.out(h)


def amp_loss(net, x, y):
    """AMP's pattern: autocast around the forward and the loss only; backward runs outside it."""
    with torch.autocast("cpu", dtype=torch.bfloat16):
        return F.cross_entropy(net(x), y)


def gradients(loss):
    model.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in model.parameters()]


def report(label, grads):
    """Largest relative difference of a parameter's gradient from eager's, as a range."""
    diff = max(((g - e).norm() / e.norm()).item() for g, e in zip(grads, eager))
    if diff > 1e-3:
        result = "differ from eager's (> 1e-3)"
    elif diff < 1e-5:
        result = "match eager's (< 1e-5)"
    else:
        result = "differ from eager's by 1e-5 to 1e-3"
    print(f"{label}:\n  gradients {result}")


torch.manual_seed(0)
model = Net()
x, y = torch.randn(256, 64), torch.randint(0, 10, (256,))
eager = gradients(amp_loss(model, x, y))
print("backward_pass_autocast:", repr(torch._functorch.config.backward_pass_autocast))

with warnings.catch_warnings():
    # Inductor's import uses torch.jit.script_method, which warns that it is deprecated (torch 2.11-2.13).
    warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)
    compiled = torch.compile(model)
    report("default ('same_as_forward')", gradients(amp_loss(compiled, x, y)))

with torch._functorch.config.patch(backward_pass_autocast="off"):
    # Read when the graphs are compiled: the model compiled above keeps its backward.
    report("'off', set after the first call", gradients(amp_loss(compiled, x, y)))
    torch.compiler.reset()  # forget the compiled graphs: the next call compiles again
    report("'off', set before compiling", gradients(amp_loss(torch.compile(model), x, y)))

# The other fix: autocast inside the compiled function, so none is active around it when it compiles.
compiled_loss = torch.compile(amp_loss)
report("autocast inside the compiled function", gradients(compiled_loss(model, x, y)))
