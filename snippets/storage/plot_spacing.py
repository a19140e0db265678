# figure: spacing.svg
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import torch

magnitudes = torch.logspace(-7, 4.9, 600)
fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
for dtype, style in ((torch.float16, "-"), (torch.bfloat16, "--")):
    stored = magnitudes.to(dtype)
    finite = stored.isfinite()
    upper = torch.nextafter(stored, torch.tensor(float("inf"), dtype=dtype))
    gap = (upper.float() - stored.float())[finite & upper.isfinite()]
    ax.loglog(magnitudes[finite & upper.isfinite()], gap, style, label=str(dtype).removeprefix("torch."))
ax.axvline(65504, color="grey", lw=0.8)
ax.annotate("float16 max 65504", (65504, 1e-7), rotation=90, ha="right", va="bottom", fontsize=8)
ax.axvline(1.23, color="grey", lw=0.8, ls=":")
ax.annotate("1.23", (1.23, 1e-7), rotation=90, ha="right", va="bottom", fontsize=8)
ax.set_xlabel("magnitude of the value")
ax.set_ylabel("gap to the next representable value")
ax.legend()
fig.savefig("spacing.svg", metadata={"Date": None})
