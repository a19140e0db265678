import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
import torch

# Labels in English; FIGURE_LANG=ja python plot_representable.py draws them in Japanese (as on the Japanese pages).
JA = os.environ.get("FIGURE_LANG") == "ja"
if JA:  # a Japanese font is needed (Debian: fonts-ipafont-gothic); findfont raises ValueError without it
    font_manager.findfont("IPAGothic", fallback_to_default=False)
    plt.rcParams["font.family"] = ["IPAGothic", "DejaVu Sans"]
plt.rcParams["svg.fonttype"] = "path"  # text drawn as outlines: the SVG needs no font where it is viewed


def localized(english, japanese):
    """The label in the language chosen by FIGURE_LANG."""
    return japanese if JA else english


LOW, HIGH, TARGET = 1.0, 1.5, 1.23
formats = [torch.float16, torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2]
bits_dtype = {2: torch.int16, 1: torch.uint8}

fig, ax = plt.subplots(figsize=(7.5, 3.2), layout="constrained")
for row, dtype in enumerate(formats):
    # Every bit pattern of the format, read as a value: the complete list of what it can store.
    n = 2 ** (8 * dtype.itemsize)
    patterns = torch.arange(n, dtype=torch.int32).to(bits_dtype[dtype.itemsize])
    values = patterns.view(dtype).float()
    near = values[(values >= LOW) & (values <= HIGH)]
    y = len(formats) - 1 - row
    ax.vlines(near, y - 0.3, y + 0.3, color="tab:blue", lw=0.6)
    stored = torch.tensor(TARGET).to(dtype).item()
    ax.plot([stored], [y], "o", color="tab:red", ms=5)
    ax.annotate(
        localized(f"{stored:.6g} ({(stored - TARGET) / TARGET:+.2%}), {len(near)} values in [1, 1.5]",
           f"{stored:.6g}({(stored - TARGET) / TARGET:+.2%})、[1, 1.5] に {len(near)} 個の値"),
        (stored, y + 0.33), fontsize=8, ha="left", va="bottom",
    )
ax.axvline(TARGET, color="grey", ls=":", lw=1)
ax.set_xlim(LOW - 0.02, HIGH + 0.02)
ax.set_ylim(-0.6, len(formats) - 0.1)
ax.set_yticks(range(len(formats)), [str(d).removeprefix("torch.") for d in reversed(formats)])
ax.set_xlabel(localized("value (blue: representable values; red: where 1.23 is stored; dotted: 1.23)",
                 "値(青: 表せる値、赤: 1.23 が格納される値、点線: 1.23)"))
fig.savefig("representable_near_1_23.svg", metadata={"Date": None})
