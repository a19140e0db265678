import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 8, device="cuda")
w = torch.randn(8, 8, device="cuda")
labels = torch.tensor([0, 1, 2, 3], device="cuda")

ops = {
    "x @ w": lambda a: a @ w,
    "F.mse_loss(x, x)": lambda a: F.mse_loss(a, a),
    "F.cross_entropy(x, labels)": lambda a: F.cross_entropy(a, labels),
    "torch.relu(x)": lambda a: torch.relu(a),
    "torch.softmax(x, -1)": lambda a: torch.softmax(a, -1),
    "x.sum()": lambda a: a.sum(),
}
for dtype in (torch.float16, torch.bfloat16):
    print(dtype)
    for name, op in ops.items():
        with torch.autocast("cuda", dtype=dtype):
            # On CUDA, softmax and sum are in the float32 list: low-precision inputs go up to float32.
            print(f"  {name:28} float32 in -> {op(x).dtype}, {dtype} in -> {op(x.to(dtype)).dtype}")
