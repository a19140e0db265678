import torch
from torch.utils import benchmark

torch.manual_seed(0)
torch.set_num_threads(1)
model = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
x, y = torch.randn(128, 512), torch.randint(0, 10, (128,))


def step(dtype):
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast("cpu", dtype=dtype, enabled=dtype is not None):
        loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()


with torch.autocast("cpu", dtype=torch.bfloat16):
    assert model(x).dtype == torch.bfloat16  # check that autocast really runs in bfloat16

for label, dtype in (("float32", None), ("autocast bfloat16", torch.bfloat16)):
    timer = benchmark.Timer("step(dtype)", globals={"step": step, "dtype": dtype})
    print(f"{label:18} {timer.blocked_autorange(min_run_time=0.2).median * 1e3:.2f} ms per step")
