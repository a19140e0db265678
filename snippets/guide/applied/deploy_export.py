"""torch.export, the successor of TorchScript: export with a dynamic batch, save, load, run."""

import torch
from torch import nn
from torch.export import Dim

torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, x):
        return self.net(x).softmax(dim=-1)


model = Classifier().eval()
example = (torch.randn(8, 4),)
batch = Dim("batch", min=1, max=1024)
program = torch.export.export(model, example, dynamic_shapes={"x": {0: batch}})
torch.export.save(program, "classifier.pt2")

loaded = torch.export.load("classifier.pt2").module()  # an nn.Module again; no class definition needed
for n in (1, 5, 64):
    x = torch.randn(n, 4)
    with torch.no_grad():
        torch.testing.assert_close(loaded(x), model(x))
    print(f"batch {n}: matches eager")

# Without dynamic_shapes the program is specialised to the example's shape.
static = torch.export.export(model, (torch.randn(1, 4),)).module()
try:
    static(torch.randn(5, 4))
except AssertionError as err:
    print(type(err).__name__ + ":", err)

# Dynamic, but exported from a batch of 1: export refuses (size 1 is specialised).
try:
    torch.export.export(model, (torch.randn(1, 4),), dynamic_shapes={"x": {0: batch}})
except torch._dynamo.exc.UserError as err:
    print(type(err).__name__ + ":", "\n".join(str(err).splitlines()[:2]))
