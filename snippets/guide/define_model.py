import torch
from torch import nn
from torch.nn import functional as F


class SimpleNet(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_classes: int):
        super().__init__()  # must run first: it sets up the registries below
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.bn1 = nn.BatchNorm1d(hidden_size)
        self.fc2 = nn.Linear(hidden_size, num_classes)
        self.dropout = nn.Dropout(0.5)
        self.register_buffer("class_weights", torch.ones(num_classes))  # saved, not trained

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.flatten(1)  # (N, 1, 8, 8) images -> (N, 64) vectors
        x = self.dropout(F.relu(self.bn1(self.fc1(x))))
        return self.fc2(x)


torch.manual_seed(0)
model = SimpleNet(64, 32, 10)
print(model)
for name, p in model.named_parameters():
    print(f"param  {name:12s} {tuple(p.shape)}")
for name, b in model.named_buffers():
    print(f"buffer {name:22s} {tuple(b.shape)} {b.dtype}")
print("trainable values:", sum(p.numel() for p in model.parameters() if p.requires_grad))
print("state_dict keys:", len(model.state_dict()))
print(model(torch.randn(4, 1, 8, 8)).shape)

# Forgetting super().__init__() fails as soon as a layer is assigned:
class Broken(nn.Module):
    def __init__(self):
        self.fc = nn.Linear(2, 2)


try:
    Broken()
except AttributeError as err:
    print(type(err).__name__, err)
