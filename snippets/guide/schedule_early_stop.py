"""An LR scheduler and early stopping on a validation split; the test split is touched once."""

import copy

import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)
digits = load_digits()
X = torch.tensor(digits.data, dtype=torch.float32) / 16.0
y = torch.tensor(digits.target)
idx_rest, idx_test = train_test_split(range(len(y)), test_size=0.2, random_state=0, stratify=digits.target)
idx_train, idx_val = train_test_split(idx_rest, test_size=0.25, random_state=0, stratify=digits.target[idx_rest])

model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=1)
criterion = nn.CrossEntropyLoss()


def loss_and_acc(idx):
    model.eval()
    with torch.no_grad():
        logits = model(X[idx])
    return criterion(logits, y[idx]).item(), (logits.argmax(1) == y[idx]).float().mean().item()


best_loss, best_state, best_epoch, patience, bad_epochs = float("inf"), None, 0, 4, 0
for epoch in range(1, 101):
    model.train()
    for batch in torch.randperm(len(idx_train)).split(64):
        xb, yb = X[idx_train][batch], y[idx_train][batch]
        optimizer.zero_grad()
        criterion(model(xb), yb).backward()
        optimizer.step()
    val_loss, val_acc = loss_and_acc(idx_val)
    scheduler.step(val_loss)  # ReduceLROnPlateau needs the metric; StepLR & co. take no argument
    print(f"epoch {epoch:2d}  val loss {val_loss:.3f}  val acc {val_acc:.3f}  next lr {scheduler.get_last_lr()[0]:.4f}")
    if val_loss < best_loss - 1e-4:
        best_loss, best_epoch, bad_epochs = val_loss, epoch, 0
        best_state = copy.deepcopy(model.state_dict())  # a copy: state_dict() returns live references
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print(f"early stop after epoch {epoch}; best epoch {best_epoch}")
            break

model.load_state_dict(best_state)
test_loss, test_acc = loss_and_acc(idx_test)
print(f"test accuracy of the best model {test_acc:.3f}")
assert test_acc >= 0.9
