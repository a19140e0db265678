"""The usual path for image datasets: torchvision. Never downloads in this site's tests."""

from pathlib import Path

import torch
from torch.utils.data import DataLoader
from torchvision import datasets
from torchvision.transforms import v2

transform = v2.Compose([
    v2.ToImage(),  # PIL image -> uint8 tensor (C, H, W)
    v2.ToDtype(torch.float32, scale=True),  # -> float in [0, 1]
    v2.Normalize((0.1307,), (0.3081,)),  # MNIST mean / std
])

root = Path("data")
try:
    train = datasets.MNIST(root, train=True, download=False, transform=transform)  # download=True on your machine
except RuntimeError:  # "Dataset not found": stand-in images of the same shape
    train = datasets.FakeData(size=256, image_size=(1, 28, 28), num_classes=10, transform=transform)

loader = DataLoader(train, batch_size=64, shuffle=True)
images, labels = next(iter(loader))
print(images.shape, images.dtype, labels.shape)
print(images.flatten(1).shape)  # flatten before an nn.Linear(784, ...)
