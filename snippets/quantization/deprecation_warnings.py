import warnings

import torch
from torch import nn
from torch.ao import quantization as tq


def record(call):
    """Run call() and return its result and the warnings it raised (all of them, even repeats)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, caught


def summary(caught):
    names = sorted({w.category.__name__ for w in caught})
    return ", ".join(names) if names else "no warning"


torch.manual_seed(0)
model = nn.Sequential(tq.QuantStub(), nn.Linear(4, 4), nn.ReLU(), tq.DeQuantStub()).eval()
all_caught = []
steps = [
    ("get_default_qconfig('x86')", lambda: tq.get_default_qconfig("x86")),
    ("QConfig(activation=..., weight=...)",
     lambda: tq.QConfig(activation=tq.MinMaxObserver.with_args(), weight=tq.default_weight_observer)),
    ("QuantStub()", lambda: tq.QuantStub()),
    ("fuse_modules(model, [['1', '2']])", lambda: tq.fuse_modules(model, [["1", "2"]])),
]
for name, call in steps:
    _, caught = record(call)
    all_caught += caught
    print(f"{name:40} {summary(caught)}")

fused = tq.fuse_modules(model, [["1", "2"]])
fused.qconfig = tq.get_default_qconfig("x86")
prepared, caught = record(lambda: tq.prepare(fused))
all_caught += caught
print(f"{'prepare(model)':40} {summary(caught)}")
prepared(torch.randn(16, 4))  # calibrate
_, caught = record(lambda: tq.convert(prepared))
all_caught += caught
print(f"{'convert(prepared)':40} {summary(caught)}")
_, caught = record(lambda: tq.quantize_dynamic(nn.Sequential(nn.Linear(4, 4)), {nn.Linear}, dtype=torch.qint8))
all_caught += caught
print(f"{'quantize_dynamic(model, {nn.Linear})':40} {summary(caught)}")

# Each distinct message once, without the build path that torch appends.
seen = set()
for w in all_caught:
    message = str(w.message).split(" (Triggered internally")[0]
    text = "\n".join(" ".join(line.split()) for line in message.splitlines())
    if text not in seen:
        seen.add(text)
        print(f"--- {w.category.__name__}\n{text}")
