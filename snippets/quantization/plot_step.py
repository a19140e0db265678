import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
import torch

# Labels in English; FIGURE_LANG=ja python plot_step.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


# 4 bits (codes 0..15) so that the steps are visible; 8 bits work the same way with 256 levels.
qmin, qmax = 0, 15
lo, hi = -1.0, 3.0
scale = (hi - lo) / (qmax - qmin)
zero_point = qmin - round(lo / scale)

x = torch.linspace(-2.0, 4.0, 2001)
codes = torch.clamp(torch.round(x / scale) + zero_point, qmin, qmax)
back = scale * (codes - zero_point)

fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 5), sharex=True, layout="constrained")
top.plot(x, x, color="grey", lw=0.8, ls=":", label="x")
top.plot(x, back, label="dequantize(quantize(x))")
top.axvspan(lo, hi, color="tab:green", alpha=0.08, label=localized("calibrated range", "キャリブレーションした範囲"))
top.set_ylabel(localized("value after the round trip", "量子化して戻した値"))
top.legend(loc="upper left", fontsize=8)
bottom.plot(x, back - x, color="tab:red")
bottom.axhline(scale / 2, color="grey", lw=0.8, ls="--")
bottom.axhline(-scale / 2, color="grey", lw=0.8, ls="--")
bottom.annotate("±scale/2", (hi, scale / 2), fontsize=8, ha="right", va="bottom")
bottom.axvspan(lo, hi, color="tab:green", alpha=0.08)
bottom.set_ylabel(localized("error", "誤差"))
bottom.set_xlabel(
    localized(f"x   (scale = {scale:.4f}, zero point = {zero_point}, codes {qmin}..{qmax})",
       f"x   (スケール = {scale:.4f}、ゼロ点 = {zero_point}、コード {qmin}〜{qmax})")
)
fig.savefig("step.svg", metadata={"Date": None})
