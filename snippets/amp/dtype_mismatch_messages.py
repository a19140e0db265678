import torch
import torch.nn.functional as F

# Outside autocast, nothing casts: an operation given float16 and float32 operands refuses them.
# The message depends on the operation, not on what went wrong.
half = torch.float16
cases = {
    "float16 Linear, float32 input": lambda: torch.nn.Linear(4, 3).to(half)(torch.randn(2, 4)),
    "float16 input, float32 weight (F.linear)": lambda: F.linear(torch.randn(2, 4, dtype=half), torch.randn(3, 4)),
    "float16 input, float32 conv weight": lambda: F.conv2d(torch.randn(1, 1, 3, 3, dtype=half), torch.randn(1, 1, 2, 2)),
    "float32 input, float16 conv weight": lambda: F.conv2d(torch.randn(1, 1, 3, 3), torch.randn(1, 1, 2, 2, dtype=half)),
    "float16 @ float32 (torch.bmm)": lambda: torch.bmm(torch.randn(1, 2, 2, dtype=half), torch.randn(1, 2, 2)),
}
for what, run in cases.items():
    try:
        run()
    except RuntimeError as err:
        print(f"{what}:\n  {type(err).__name__}: {err}")
