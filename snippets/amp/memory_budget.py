"""A training run's memory budget: bytes per parameter for weights, gradients and optimizer states."""

GiB = 2**30

# Bytes per parameter: (weights, gradients, optimizer states, autocast's 16-bit weight copies).
# AdamW keeps two states per parameter (exp_avg, exp_avg_sq), in the weights' dtype.
# torchao's 8-bit states: 1 byte + one float32 scale per block of 256, twice;
# 4-bit: half a byte + one float32 scale per block of 128, twice.
RECIPES = {
    "float32 + AdamW": (4, 4, 8, 0),
    "bfloat16 weights + AdamW": (2, 2, 4, 0),
    "AMP bf16 (fp32 master) + AdamW": (4, 4, 8, 2),
    "AMP bf16 + AdamW8bit": (4, 4, 2 * (1 + 4 / 256), 2),
    "AMP bf16 + AdamW4bit": (4, 4, 2 * (0.5 + 4 / 128), 2),
    "bfloat16 weights + AdamW8bit": (2, 2, 2 * (1 + 4 / 256), 0),
    "bfloat16 weights + AdamW4bit": (2, 2, 2 * (0.5 + 4 / 128), 0),
}


def budget(n_params, recipe, activation_bytes=0):
    """Bytes a training step holds at its peak: weights + gradients + states + copies + activations."""
    weights, grads, states, copies = RECIPES[recipe]
    return n_params * (weights + grads + states + copies) + activation_bytes


n = 6.74e9  # parameters of a 7B language model (Llama 2 7B)
print(f"{n / 1e9:.2f} B parameters, activations not included")
print(f"{'recipe':31} {'B/param':>7} {'GiB':>5}")
for recipe, parts in RECIPES.items():
    print(f"{recipe:31} {sum(parts):7.2f} {budget(n, recipe) / GiB:5.1f}")
