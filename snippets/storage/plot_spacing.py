import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
import torch

# Labels in English; FIGURE_LANG=ja python plot_spacing.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


magnitudes = torch.logspace(-7, 4.9, 600)
fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
for dtype, style in ((torch.float16, "-"), (torch.bfloat16, "--")):
    stored = magnitudes.to(dtype)
    finite = stored.isfinite()
    upper = torch.nextafter(stored, torch.tensor(float("inf"), dtype=dtype))
    gap = (upper.float() - stored.float())[finite & upper.isfinite()]
    ax.loglog(magnitudes[finite & upper.isfinite()], gap, style, label=str(dtype).removeprefix("torch."))
ax.axvline(65504, color="grey", lw=0.8)
ax.annotate(localized("float16 max 65504", "float16 の最大値 65504"), (65504, 1e-7), rotation=90, ha="right", va="bottom", fontsize=8)
ax.axvline(1.23, color="grey", lw=0.8, ls=":")
ax.annotate("1.23", (1.23, 1e-7), rotation=90, ha="right", va="bottom", fontsize=8)
ax.set_xlabel(localized("magnitude of the value", "値の大きさ"))
ax.set_ylabel(localized("gap to the next representable value", "次に表せる値までの間隔"))
ax.legend()
fig.savefig("spacing.svg", metadata={"Date": None})
