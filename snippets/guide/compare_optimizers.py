"""SGD, SGD with momentum, Adam, AdamW and RMSprop on the same task, same start, same batches."""

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

torch.set_num_threads(1)
digits = load_digits()
X = torch.tensor(digits.data, dtype=torch.float32) / 16.0
y = torch.tensor(digits.target)
idx_train, idx_test = train_test_split(range(len(y)), test_size=0.25, random_state=0, stratify=digits.target)


def train(make_optimizer, epochs=10):
    torch.manual_seed(0)  # identical initial weights and batch order for every optimizer
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = make_optimizer(model.parameters())
    for _ in range(epochs):
        for batch in torch.randperm(len(idx_train)).split(64):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(X[idx_train][batch]), y[idx_train][batch])
            loss.backward()
            opt.step()
    with torch.no_grad():
        train_loss = nn.functional.cross_entropy(model(X[idx_train]), y[idx_train]).item()
        test_acc = (model(X[idx_test]).argmax(1) == y[idx_test]).float().mean().item()
    return train_loss, test_acc


optimizers = {
    "SGD lr=0.1": lambda p: torch.optim.SGD(p, lr=0.1),
    "SGD lr=0.1 momentum=0.9": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
    "Adam lr=1e-3": lambda p: torch.optim.Adam(p, lr=1e-3),
    "AdamW lr=1e-3 wd=0.01": lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01),
    "RMSprop lr=1e-3": lambda p: torch.optim.RMSprop(p, lr=1e-3),
}
print(f"{'optimizer (10 epochs)':26s} {'train loss':>10s} {'test acc':>8s}")
for name, make in optimizers.items():
    loss, acc = train(make)
    print(f"{name:26s} {loss:10.3f} {acc:8.3f}")
