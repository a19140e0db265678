import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

# Labels in English; FIGURE_LANG=ja python quantization_workflows.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


FLOAT, DATA, INT8 = "#dbe9f6", "#d9f0d3", "#fde0c5"  # fills: float model, a step that needs data, int8 result
W = 2.45  # width of a step box, in inches

# Each workflow: its title, then its steps (the call or None, what it does, fill).
workflows = [
    (localized("Dynamic quantization (PTQ)", "動的量子化(PTQ)"), [
        (None, localized("trained float model", "学習済みの float モデル"), FLOAT),
        ("quantize_dynamic", localized("int8 weights", "重みを int8 に"), INT8),
        (None, localized("activations quantized\nper input at run time", "活性値は実行時に\n入力ごとに量子化"), INT8),
    ]),
    (localized("Static quantization (PTQ)", "静的量子化(PTQ)"), [
        ("prepare / prepare_pt2e", localized("insert observers", "オブザーバを挿入"), FLOAT),
        (None, localized("calibrate: run\nrepresentative data", "キャリブレーション:\n代表的なデータを通す"), DATA),
        ("convert / convert_pt2e", localized("int8 weights and activations", "重みも活性値も int8"), INT8),
    ]),
    (localized("Quantization-aware training", "量子化を意識した学習(QAT)"), [
        ("prepare_qat", localized("insert fake quantization", "フェイク量子化を挿入"), FLOAT),
        (None, localized("fine-tune: train a\nfew epochs", "ファインチューニング:\n数エポック学習する"), DATA),
        ("convert", localized("int8 model", "int8 のモデル"), INT8),
    ]),
    (localized("torchao (PTQ)", "torchao(PTQ)"), [
        ("quantize_(model, config)", localized("weights replaced in place", "重みをインプレースで置換"), INT8),
        ("torch.compile", localized("optional: fused kernels", "任意: カーネルを融合"), FLOAT),
        (None, localized("same nn.Module,\nint8 weights", "同じ nn.Module、\n重みは int8"), INT8),
    ]),
]


def draw(ax, x, top, title, steps):
    """One workflow as a column of boxes joined by arrows, its title on top; x is the column's centre."""
    ax.text(x, top, title, ha="center", va="top", fontsize=12.5)
    y = top - 0.75
    for i, (call, note, color) in enumerate(steps):
        ax.add_patch(FancyBboxPatch((x - W / 2, y - 0.36), W, 0.72, boxstyle="round,pad=0.02,rounding_size=0.08",
                                    facecolor=color, edgecolor="#333", lw=0.9))
        if call:
            ax.text(x, y + 0.16, call, ha="center", va="center", fontsize=10.5, family="monospace")
            ax.text(x, y - 0.15, note, ha="center", va="center", fontsize=10.5)
        else:
            ax.text(x, y, note, ha="center", va="center", fontsize=10.5)
        if i:
            ax.add_patch(FancyArrowPatch((x, y + 0.74), (x, y + 0.38), arrowstyle="-|>", mutation_scale=13,
                                         lw=1.1, color="#333"))
        y -= 1.1


fig = plt.figure(figsize=(5.4, 8.0))
ax = fig.add_axes((0, 0, 1, 1))
ax.set_xlim(0, 5.4)
ax.set_ylim(0, 8.0)
ax.axis("off")
for i, (title, steps) in enumerate(workflows):
    draw(ax, 1.375 + 2.65 * (i % 2), 7.85 - 3.95 * (i // 2), title, steps)
fig.savefig("quantization_workflows.svg", metadata={"Date": None})
