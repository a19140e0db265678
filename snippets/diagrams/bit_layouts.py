import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.patches import Rectangle
import torch

# Labels in English; FIGURE_LANG=ja python bit_layouts.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


def layout(dtype):
    """(sign, exponent, mantissa) bits of a floating-point dtype, read from torch.finfo."""
    info = torch.finfo(dtype)
    mantissa = round(-math.log2(info.eps))  # eps = 2**-mantissa
    return 1, info.bits - 1 - mantissa, mantissa


formats = [
    ("float32", layout(torch.float32)),
    ("TF32", (1, 8, 10)),  # not a dtype: how tensor cores round float32 matmul inputs
    ("float16", layout(torch.float16)),
    ("bfloat16", layout(torch.bfloat16)),
    ("float8_e4m3fn", layout(torch.float8_e4m3fn)),
    ("float8_e5m2", layout(torch.float8_e5m2)),
]

colors = {"sign": "#f4a6a6", "exponent": "#9cc3e6", "mantissa": "#b8dfa3"}
bit = 0.15  # width of one bit, in inches: every row is drawn to the same scale
fig = plt.figure(figsize=(32 * bit + 0.3, 0.75 * len(formats) + 0.75))
ax = fig.add_axes((0, 0, 1, 1))
ax.set_xlim(-0.15, 32 * bit + 0.15)
ax.set_ylim(-0.75 * len(formats) - 0.7, 0.05)
ax.axis("off")
for row, (name, fields) in enumerate(formats):
    y = -0.75 * row - 0.62
    x = 0.0
    ax.text(0, y + 0.42, f"{name}  " + localized(f"{sum(fields)} bits", f"{sum(fields)} ビット"),
            fontsize=12, va="bottom")
    for field, n in zip(("sign", "exponent", "mantissa"), fields):
        ax.add_patch(Rectangle((x, y), n * bit, 0.38, facecolor=colors[field], edgecolor="#333", lw=0.8))
        ax.text(x + n * bit / 2, y + 0.19, str(n), fontsize=12, ha="center", va="center")
        x += n * bit
legend = [
    ("sign", localized("sign", "符号")),
    ("exponent", localized("exponent: range", "指数: 範囲")),
    ("mantissa", localized("mantissa: precision", "仮数: 精度")),
]
x, y = 0.0, -0.75 * len(formats) - 0.55
renderer = fig.canvas.get_renderer()
for field, label in legend:
    ax.add_patch(Rectangle((x, y), 0.22, 0.22, facecolor=colors[field], edgecolor="#333", lw=0.8))
    text = ax.text(x + 0.3, y + 0.11, label, fontsize=12, va="center")
    x += 0.3 + text.get_window_extent(renderer).width / fig.dpi + 0.3  # the next entry after this label
fig.savefig("bit_layouts.svg", metadata={"Date": None})
