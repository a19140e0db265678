import torchao.prototype.mx_formats.config as mx_config
from torchao.prototype.moe_training.config import MXFP8TrainingOpConfig, MXFP8TrainingRecipe

# torchao 0.18: MXFP8 training recipes live in torchao.prototype.moe_training
for recipe in MXFP8TrainingRecipe:
    config = MXFP8TrainingOpConfig.from_recipe(recipe)
    print(f"{recipe.value:26} kernels {config.kernel_preference.name:8} "
          f"weight gradient in high precision: {config.wgrad_with_hp}, scales {config.scale_calculation_mode.name}")
# the older MXLinearConfig (recipe names such as mxfp8_cublas) is gone from this torchao
print("MXLinearConfig in torchao.prototype.mx_formats.config:", hasattr(mx_config, "MXLinearConfig"))
