import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
import torch
from sklearn.datasets import load_digits
from torch import nn

from reference_impl.quantization import (
    choose_qparams,
    dequantize_per_channel,
    dequantize_per_tensor,
    quantize_per_channel,
    quantize_per_tensor,
)

# Labels in English; FIGURE_LANG=ja python weight_error.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


torch.set_num_threads(1)
torch.manual_seed(0)
digits = load_digits()
x = torch.tensor(digits.data / 16.0, dtype=torch.float32)
y = torch.tensor(digits.target)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(150):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()

w = model[0].weight.detach()
# Per tensor: one symmetric scale for the whole matrix.
pt = choose_qparams(w.min(), w.max(), torch.int8, symmetric=True)
err_tensor = dequantize_per_tensor(quantize_per_tensor(w, pt.scale, pt.zero_point, torch.int8), pt.scale, pt.zero_point) - w
# Per channel: one scale per output row.
lo, hi = torch.aminmax(w, dim=1)
pc = choose_qparams(lo, hi, torch.int8, symmetric=True)
err_channel = dequantize_per_channel(quantize_per_channel(w, pc.scale, pc.zero_point, 0, torch.int8), pc.scale, pc.zero_point, 0) - w

for name, err in (("per tensor ", err_tensor), ("per channel", err_channel)):
    rel = (err.norm() / w.norm()).item()
    print(f"{name}: max |error| {err.abs().max().item():.2e}   relative L2 {rel:.2e}")
print(f"row scales range from {pc.scale.min().item():.2e} to {pc.scale.max().item():.2e}; per tensor uses {pt.scale.item():.2e}")

fig, ax = plt.subplots(figsize=(7, 3.4), layout="constrained")
bins = torch.linspace(-pt.scale.item() / 2, pt.scale.item() / 2, 61)
ax.hist(err_tensor.flatten(), bins=bins, alpha=0.6, label=localized("per tensor", "テンソル単位"))
ax.hist(err_channel.flatten(), bins=bins, alpha=0.6, label=localized("per channel", "チャネル単位"))
ax.set_xlabel(localized("quantization error of the first layer's weights (int8, symmetric)", "1 層目の重みの量子化誤差(int8、対称)"))
ax.set_ylabel(localized("weights", "重みの個数"))
ax.legend()
fig.savefig("weight_error.svg", metadata={"Date": None})
