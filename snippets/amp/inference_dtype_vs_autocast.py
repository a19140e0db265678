import copy

import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(), torch.nn.Linear(512, 10)).eval()
x = torch.randn(32, 256)


def weight_bytes(m):
    return sum(p.numel() * p.element_size() for p in m.parameters())


with torch.inference_mode():
    reference = model.double()(x.double())
    model.float()
    fp32 = model(x)
    with torch.autocast("cpu", dtype=torch.bfloat16):  # weights stay float32, cast per op
        autocast_out = model(x)
    converted = copy.deepcopy(model).to(torch.bfloat16)  # the weights themselves become bfloat16
    converted_out = converted(x.to(torch.bfloat16))  # inputs must match: convert them too

for name, out, m in (("float32", fp32, model), ("autocast bf16", autocast_out, model), (".to(bf16)", converted_out, converted)):
    error = ((out.double() - reference).norm() / reference.norm()).item()
    print(f"{name:14} output {str(out.dtype):15} weights {weight_bytes(m):7d} bytes  relative error {error:.0e}")

try:
    with torch.inference_mode():
        converted(x)  # float32 input into a bfloat16 model
except RuntimeError as err:
    print(type(err).__name__, err)
