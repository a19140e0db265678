import warnings

import torch
from torch import nn
from torchao.float8 import Float8LinearConfig, convert_to_float8_training
from torchao.quantization import Float8DynamicActivationFloat8WeightConfig, PerRow, quantize_

with warnings.catch_warnings():
    # torch.compile loads torch.utils.mkldnn, which still uses the deprecated torch.jit.script_method
    # (torch 2.11 to 2.13): hidden by Python's default filters, an error where warnings are errors.
    warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)
    import torch.utils.mkldnn  # noqa: F401

# Under autocast, torchao 0.18's Float8Linear calls the deprecated torch.get_autocast_gpu_dtype()
# (torch 2.11 to 2.13): hidden by Python's default filters, an error where warnings are errors.
warnings.filterwarnings("ignore", message=r"torch\.get_autocast_gpu_dtype\(\) is deprecated", category=DeprecationWarning)

torch.manual_seed(0)


def make_model():
    return nn.Sequential(nn.Linear(4096, 14336), nn.SiLU(), nn.Linear(14336, 4096)).cuda()


def float8_friendly(module, fqn):
    """float8 matmuls need both dimensions divisible by 16; other layers stay in high precision."""
    return isinstance(module, nn.Linear) and module.in_features % 16 == 0 and module.out_features % 16 == 0


# Training: float8 matmuls in forward and backward, bfloat16 autocast around them.
model = make_model()
config = Float8LinearConfig.from_recipe_name("tensorwise")  # the default recipe; "rowwise" for outliers
convert_to_float8_training(model, config=config, module_filter_fn=float8_friendly)
print("converted:", [type(layer).__name__ for layer in model])
model = torch.compile(model)  # compile fuses the scaling and casting kernels
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
x = torch.randn(8, 2048, 4096, device="cuda")
for _ in range(3):
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(x).float().square().mean()
    loss.backward()
    optimizer.step()
print("float8 training step ran, loss", f"{loss.item():.4f}")

# Inference: float8 weights, activations cast to float8 on the fly (needs compute capability 8.9+).
model = make_model().to(torch.bfloat16).eval()
quantize_(model, Float8DynamicActivationFloat8WeightConfig(granularity=PerRow()))  # one scale per row
with torch.no_grad():
    print("float8 inference output:", model(x[0].to(torch.bfloat16)).dtype)
