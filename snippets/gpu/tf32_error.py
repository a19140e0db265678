import torch

from reference_impl.storage import float32_to_bfloat16, float32_to_float16, float32_to_tf32

torch.manual_seed(0)
a = torch.randn(256, 1024)
b = torch.randn(1024, 256)
exact = a.double() @ b.double()  # the float32 inputs, multiplied (almost) exactly


def relative_error(a_rounded, b_rounded):
    # Multiply the rounded inputs in float64: what remains is the error of the rounding.
    product = a_rounded.double() @ b_rounded.double()
    return ((product - exact).abs().max() / exact.abs().max()).item()


print("one value, 1/3 in float32:", torch.tensor(1 / 3).item())
print("                  in TF32:", float32_to_tf32(torch.tensor(1 / 3), rounding="nearest_even").item())
print()
print("largest error of a 256x1024 @ 1024x256 product, relative to its largest entry")
for name, rounding in [
    ("tf32 (nearest, ties even)", lambda t: float32_to_tf32(t, rounding="nearest_even")),
    ("tf32 (nearest, ties away)", lambda t: float32_to_tf32(t, rounding="nearest_away")),
    ("tf32 (toward zero)", lambda t: float32_to_tf32(t, rounding="toward_zero")),
    ("float16 inputs", lambda t: float32_to_float16(t).float()),
    ("bfloat16 inputs", lambda t: float32_to_bfloat16(t).float()),
]:
    print(f"  {name:26} {relative_error(rounding(a), rounding(b)):.1e}")
