import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 8)  # float32 activations
w = torch.randn(8, 8)  # float32 weight
labels = torch.tensor([0, 1, 2, 3])

ops = {
    "x @ w": lambda a: a @ w,
    "F.linear(x, w)": lambda a: F.linear(a, w),
    "F.mse_loss(x, x)": lambda a: F.mse_loss(a, a),
    "F.cross_entropy(x, labels)": lambda a: F.cross_entropy(a, labels),
    "torch.relu(x)": lambda a: torch.relu(a),
    "torch.softmax(x, -1)": lambda a: torch.softmax(a, -1),
    "x.sum()": lambda a: a.sum(),
    "(x @ w) + x": lambda a: (a @ w) + a,
}


def short(dtype):
    return str(dtype).removeprefix("torch.")


print(f"{'op':28} {'float32 in':>12} {'bfloat16 in':>12} {'fp16 autocast':>14}")
for name, op in ops.items():
    with torch.autocast("cpu", dtype=torch.bfloat16):
        from_float32 = op(x).dtype
        from_bfloat16 = op(x.bfloat16()).dtype
    with torch.autocast("cpu", dtype=torch.float16):
        fp16 = op(x).dtype
    print(f"{name:28} {short(from_float32):>12} {short(from_bfloat16):>12} {short(fp16):>14}")
