"""A complete training loop that really learns: 8x8 digits, a small MLP, held-out evaluation."""

import torch
from sklearn.datasets import load_digits
from sklearn.metrics import accuracy_score, confusion_matrix, f1_score
from sklearn.model_selection import train_test_split
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
torch.set_num_threads(1)  # reproducible float sums (and fair on a shared machine)

digits = load_digits()
X = torch.tensor(digits.images, dtype=torch.float32).unsqueeze(1) / 16.0  # (N, 1, 8, 8) in [0, 1]
y = torch.tensor(digits.target)
idx_train, idx_test = train_test_split(range(len(y)), test_size=0.25, random_state=0, stratify=digits.target)
train_loader = DataLoader(
    TensorDataset(X[idx_train], y[idx_train]), batch_size=64, shuffle=True, generator=torch.Generator().manual_seed(0)
)
test_loader = DataLoader(TensorDataset(X[idx_test], y[idx_test]), batch_size=256)

model = nn.Sequential(
    nn.Flatten(),  # (N, 1, 8, 8) -> (N, 64): the step many MNIST loops forget
    nn.Linear(64, 128),
    nn.ReLU(),
    nn.Dropout(0.2),
    nn.Linear(128, 10),
)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
device = "cpu"  # on a GPU: "cuda" if torch.cuda.is_available() else "cpu" (this page shows a CPU run)
model.to(device)


def evaluate(model, loader):
    model.eval()  # dropout off (BatchNorm would use running statistics)
    preds, labels = [], []
    with torch.inference_mode():  # no graph, less memory
        for xb, yb in loader:
            preds.append(model(xb.to(device)).argmax(dim=1).cpu())
            labels.append(yb)
    return torch.cat(labels).numpy(), torch.cat(preds).numpy()


for epoch in range(1, 21):
    model.train()
    total, n = 0.0, 0
    for xb, yb in train_loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(yb)  # .item(): a float, not a graph
        n += len(yb)
    if epoch % 5 == 0:
        labels, preds = evaluate(model, test_loader)
        print(f"epoch {epoch:2d}  train loss {total / n:.3f}  test accuracy {accuracy_score(labels, preds):.3f}")

labels, preds = evaluate(model, test_loader)
acc = accuracy_score(labels, preds)
print(f"held-out accuracy {acc:.3f}  macro F1 {f1_score(labels, preds, average='macro'):.3f}")
print(confusion_matrix(labels, preds))
assert acc >= 0.9, f"the model did not learn: accuracy {acc:.3f}"
