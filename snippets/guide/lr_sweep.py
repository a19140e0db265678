"""Check 'recommended learning rates' by running them: test accuracy after 10 epochs on digits."""

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

torch.set_num_threads(1)
digits = load_digits()
X = torch.tensor(digits.data, dtype=torch.float32) / 16.0
y = torch.tensor(digits.target)
idx_train, idx_test = train_test_split(range(len(y)), test_size=0.25, random_state=0, stratify=digits.target)


def test_accuracy(opt_class, lr, epochs=10):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = opt_class(model.parameters(), lr=lr)
    for _ in range(epochs):
        for batch in torch.randperm(len(idx_train)).split(64):
            opt.zero_grad()
            nn.functional.cross_entropy(model(X[idx_train][batch]), y[idx_train][batch]).backward()
            opt.step()
    with torch.no_grad():
        logits = model(X[idx_test])
    if not torch.isfinite(logits).all():
        return "diverged"
    return f"{(logits.argmax(1) == y[idx_test]).float().mean().item():.3f}"


lrs = [2e-5, 1e-3, 1e-2, 1e-1, 1.0]
print(f"{'lr':9s}" + "".join(f"{lr:>9g}" for lr in lrs))
for opt_class in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.RMSprop):
    print(f"{opt_class.__name__:9s}" + "".join(f"{test_accuracy(opt_class, lr):>9s}" for lr in lrs))
