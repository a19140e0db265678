import torch

torch.manual_seed(0)
x = torch.randn(4, 8)
w1 = torch.randn(8, 8)
w2 = torch.randn(8, 8)

with torch.autocast("cpu", dtype=torch.bfloat16):
    h = x @ w1
    print("outer region:", h.dtype)
    with torch.autocast("cpu", dtype=torch.float16):  # nesting: the inner dtype wins inside
        print("inner float16 region:", (x @ w1).dtype)
    with torch.autocast("cpu", enabled=False):  # a float32 island
        try:
            h @ w2  # h is bfloat16, w2 is float32, and nobody casts any more
        except RuntimeError as err:
            print(type(err).__name__, err)
        exact = h.float() @ w2  # cast what came from the autocast region yourself
        print("disabled region:", exact.dtype, torch.is_autocast_enabled("cpu"))
    print("back in the outer region:", (h @ w2).dtype, torch.is_autocast_enabled("cpu"))
