import numpy as np
import torch

torch.manual_seed(0)
a = torch.tensor([1, 2, 3])  # dtype from the data: int64
b = torch.tensor([1.0, 2.0, 3.0])  # float32 (the default float dtype)
c = torch.zeros(2, 3)
d = torch.arange(0, 1, 0.25)
e = torch.linspace(0, 1, 5)
f = torch.full((2, 2), 7, dtype=torch.int16)
g = torch.randn(2, 3)  # standard normal, from the seeded generator
h = torch.from_numpy(np.array([1.5, 2.5]))  # float64, like NumPy
for name, t in {"a": a, "b": b, "c": c, "d": d, "e": e, "f": f, "g": g, "h": h}.items():
    values = t.flatten()[:4].tolist()
    if t.is_floating_point():
        values = [round(v, 4) for v in values]
    print(name, t.dtype, tuple(t.shape), t.device.type, values)

# Change dtype and device with .to(); it returns a new tensor (or the same one if nothing changes).
print(b.to(torch.float16).dtype, b.to("cpu") is b)
device = "cuda" if torch.cuda.is_available() else "cpu"
print(b.to(device).device.type in {"cpu", "cuda"})

# Mixing dtypes follows type promotion; mixing devices is an error.
print((a + b).dtype, (a + 1).dtype, (a / 2).dtype)
