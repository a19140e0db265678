import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Polygon

# Labels in English; FIGURE_LANG=ja python amp_step.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


LOW, FLOAT32, CHECK = "#fde0c5", "#dbe9f6", "#fff2b3"  # fills: 16-bit work, float32 work, the check


def box(ax, x, y, code, note, color, width=4.6, mono=True):
    """A step centred at (x, y): the call on the first line, what it does below."""
    ax.add_patch(FancyBboxPatch((x - width / 2, y - 0.36), width, 0.72, boxstyle="round,pad=0.02,rounding_size=0.08",
                                facecolor=color, edgecolor="#333", lw=0.9))
    ax.text(x, y + 0.14, code, ha="center", va="center", fontsize=11.5, family="monospace" if mono else None)
    ax.text(x, y - 0.17, note, ha="center", va="center", fontsize=11)


def arrow(ax, start, end, label="", side="right", rad=0.0):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=14, lw=1.1, color="#333",
                                 connectionstyle=f"arc3,rad={rad}"))
    if label:
        mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
        ax.text(mx + (0.1 if side == "right" else -0.1), my, label, fontsize=11,
                ha="left" if side == "right" else "right", va="center")


fig = plt.figure(figsize=(5.2, 7.6))
ax = fig.add_axes((0, 0, 1, 1))
ax.set_xlim(0, 5.2)
ax.set_ylim(0, 7.6)
ax.axis("off")
cx = 2.6
box(ax, cx, 7.05, "with torch.autocast(...):", localized("forward: matmuls in float16/bfloat16", "順伝播: 行列積は float16/bfloat16"), LOW)
box(ax, cx, 5.95, "scaler.scale(loss).backward()", localized("loss × S, so small gradients survive", "損失 × S で小さな勾配を守る"), LOW)
box(ax, cx, 4.85, "scaler.step(optimizer)", localized("unscale: gradients ÷ S, in float32", "アンスケール: 勾配 ÷ S(float32)"), FLOAT32)
# the check: a diamond
dy = 3.72
ax.add_patch(Polygon([(cx, dy + 0.42), (cx + 1.5, dy), (cx, dy - 0.42), (cx - 1.5, dy)], closed=True,
                     facecolor=CHECK, edgecolor="#333", lw=0.9))
ax.text(cx, dy, localized("inf or NaN\nin a gradient?", "勾配に inf や\nNaN があるか"), ha="center", va="center", fontsize=11)
left, right = 1.3, 3.9
box(ax, left, 2.45, "optimizer.step()", localized("weights updated", "重みを更新"), FLOAT32, width=2.4)
box(ax, right, 2.45, localized("skip the step", "ステップをスキップ"), localized("weights unchanged", "重みはそのまま"), CHECK, width=2.4,
    mono=False)
box(ax, left, 1.25, "scaler.update()", localized("S × 2 after\n2000 clean steps", "問題なしが 2000 回\n続けば S × 2"), FLOAT32, width=2.4)
box(ax, right, 1.25, "scaler.update()", localized("S × 0.5", "S × 0.5"), CHECK, width=2.4)
for y0, y1 in ((7.05, 5.95), (5.95, 4.85), (4.85, dy + 0.05)):
    arrow(ax, (cx, y0 - 0.37), (cx, y1 + 0.37))
arrow(ax, (cx - 1.5, dy), (left, 2.82), localized("no", "いいえ"), side="left")
arrow(ax, (cx + 1.5, dy), (right, 2.82), localized("yes", "はい"))
arrow(ax, (left, 2.08), (left, 1.62))
arrow(ax, (right, 2.08), (right, 1.62))
ax.text(cx, 0.35, localized("next batch: back to the top with the new S", "次のバッチ: 新しい S で最初に戻る"),
        ha="center", va="center", fontsize=11, style="italic")
fig.savefig("amp_step.svg", metadata={"Date": None})
