import re

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


torch.manual_seed(0)
model = Net()

# Recommended: save the state_dict (a dict of tensors) and rebuild the model from code.
torch.save(model.state_dict(), "weights.pt")
restored = Net()
print(restored.load_state_dict(torch.load("weights.pt")))  # weights_only=True is the default since 2.6
print(torch.equal(restored.fc.weight, model.fc.weight))

# A whole-model pickle stores a reference to the class and is refused by the default.
torch.save(model, "whole_model.pt")
try:
    torch.load("whole_model.pt")
except Exception as err:
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(err))  # drop the terminal bold codes in the message
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    print(type(err).__name__, lines[0])
    print(next(ln for ln in lines if ln.startswith("WeightsUnpickler")))


# Why the default changed: unpickling can call any function the file names.
class Payload:
    def __reduce__(self):
        return (print, ("this ran inside torch.load!",))  # could be os.system(...)


torch.save({"weights": torch.ones(1), "x": Payload()}, "untrusted.pt")
try:
    torch.load("untrusted.pt")  # safe: refuses to call print
except Exception as err:
    print("weights_only=True refused it:", type(err).__name__)
loaded = torch.load("untrusted.pt", weights_only=False)  # runs the payload: only for files you trust
