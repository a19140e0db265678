import torch

# .half() converts the bias as well as the weight: fed float32, the convolution names the bias.
conv = torch.nn.Conv2d(1, 1, 2).half()
try:
    conv(torch.randn(1, 1, 3, 3))
except RuntimeError as err:
    print(f"{type(err).__name__}: {err}")
