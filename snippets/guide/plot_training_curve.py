"""Draw training loss and validation accuracy per epoch for the digits MLP."""

import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
import torch
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from torch import nn

# Labels in English; FIGURE_LANG=ja python plot_training_curve.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


torch.manual_seed(0)
torch.set_num_threads(1)
digits = load_digits()
X = torch.tensor(digits.data, dtype=torch.float32) / 16.0
y = torch.tensor(digits.target)
idx_train, idx_val = train_test_split(range(len(y)), test_size=0.25, random_state=0, stratify=digits.target)

history = {}
for name, make_opt in {
    "SGD lr=0.01": lambda p: torch.optim.SGD(p, lr=0.01),
    "SGD lr=0.1 momentum=0.9": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
    "Adam lr=1e-3": lambda p: torch.optim.Adam(p, lr=1e-3),
}.items():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = make_opt(model.parameters())
    losses, accs = [], []
    for epoch in range(30):
        model.train()
        total = 0.0
        for batch in torch.randperm(len(idx_train)).split(64):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(X[idx_train][batch]), y[idx_train][batch])
            loss.backward()
            opt.step()
            total += loss.item() * len(batch)
        losses.append(total / len(idx_train))
        model.eval()
        with torch.no_grad():
            accs.append((model(X[idx_val]).argmax(1) == y[idx_val]).float().mean().item())
    history[name] = (losses, accs)

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.5))
epochs = range(1, 31)
for name, (losses, accs) in history.items():
    ax1.plot(epochs, losses, label=name)
    ax2.plot(epochs, accs, label=name)
ax1.set(xlabel=localized("epoch", "エポック"), ylabel=localized("training loss", "学習損失"), yscale="log",
        title=localized("Training loss", "学習損失"))
ax2.set(xlabel=localized("epoch", "エポック"), ylabel=localized("accuracy", "正解率"), ylim=(0.5, 1.0),
        title=localized("Validation accuracy", "検証データでの正解率"))
ax2.legend(loc="lower right")
for ax in (ax1, ax2):
    ax.grid(True, alpha=0.3)
fig.tight_layout()
fig.savefig("training_curve.svg", metadata={"Date": None})
