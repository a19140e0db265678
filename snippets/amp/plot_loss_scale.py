import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
import torch

# Labels in English; FIGURE_LANG=ja python plot_loss_scale.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(64, 8), torch.randn(64, 1)
# A small growth interval (default 2000) so that growth shows within 60 steps.
scaler = torch.amp.GradScaler("cpu", init_scale=2.0**20, growth_interval=8)
inject = {12, 13, 35}  # steps whose gradients we overwrite with inf

scales, skipped = [], []
for step in range(60):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = torch.nn.functional.mse_loss(model(x), y)
    scaler.scale(loss).backward()
    if step in inject:
        model[0].weight.grad[0, 0] = float("inf")
    before = scaler.get_scale()
    scaler.step(optimizer)
    scaler.update()
    scales.append(before)
    if scaler.get_scale() < before:  # the scale only drops after a skipped step
        skipped.append(step)
print("skipped steps:", skipped)
print("injected:", sorted(inject))

fig, ax = plt.subplots(figsize=(7, 3.4), layout="constrained")
ax.step(range(60), scales, where="post", label=localized("scale used at the step", "そのステップで使ったスケール"))
ax.scatter(skipped, [scales[s] for s in skipped], color="red", zorder=3, label=localized("skipped step (inf/NaN gradient)", "スキップしたステップ(勾配に inf/NaN)"))
ax.scatter(sorted(inject), [scales[s] * 1.5 for s in sorted(inject)], marker="v", color="black", label=localized("inf injected", "inf を注入"))
ax.set_yscale("log", base=2)
ax.set_xlabel(localized("training step", "学習ステップ"))
ax.set_ylabel(localized("loss scale", "損失スケール"))
ax.legend(loc="lower right", fontsize=8)
fig.savefig("loss_scale.svg", metadata={"Date": None})
