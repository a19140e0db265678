import torch
from torch import nn
from torchao.float8 import Float8LinearConfig, convert_to_float8_training


def divisible_by_16(module, fqn):
    """float8 matmuls need both dimensions divisible by 16; leave other layers in high precision."""
    return isinstance(module, nn.Linear) and module.in_features % 16 == 0 and module.out_features % 16 == 0


for recipe in ("tensorwise", "rowwise", "rowwise_with_gw_hp"):
    config = Float8LinearConfig.from_recipe_name(recipe)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10))  # 10: not divisible by 16
    convert_to_float8_training(model, config=config, module_filter_fn=divisible_by_16)
    grad = config.cast_config_grad_output
    weight_grad = config.cast_config_grad_output_for_grad_weight
    print(f"{recipe:19} layers: {[type(m).__name__ for m in model]}")
    print(f"{'':19} gradients: {grad.target_dtype or config.cast_config_input.target_dtype}, "
          f"{grad.scaling_granularity.name.lower()} scales; weight-gradient matmul in float8: "
          f"{weight_grad.scaling_type.name != 'DISABLED'}")
