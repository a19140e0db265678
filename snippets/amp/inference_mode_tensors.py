import torch

model = torch.nn.Linear(4, 2)
with torch.inference_mode():
    features = model(torch.randn(3, 4))  # no history and no version counters: less bookkeeping than no_grad
print(features.requires_grad, features.is_inference())

head = torch.nn.Linear(2, 1)
try:
    head(features).sum().backward()  # reusing an inference tensor for training
except RuntimeError as err:
    print(type(err).__name__, err)
head(features.clone()).sum().backward()  # a clone outside inference_mode is an ordinary tensor
print("after clone():", head.weight.grad.shape)
