"""Keep layers in float by name: modules_to_not_convert and FqnToConfig, and how each can skip nothing."""

import tempfile
import warnings
from pathlib import Path

import torch
import transformers
from torch import nn
from torchao.quantization import FqnToConfig, Int8WeightOnlyConfig
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM, TorchAoConfig

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder / "float")


def show_float_linears(label, model):
    """Print the nn.Linear layers whose weight is still a plain float32 tensor (names without "model.")."""
    names = sorted(name.removeprefix("model.") for name, m in model.named_modules()
                   if isinstance(m, nn.Linear) and type(m.weight) is nn.Parameter and m.weight.dtype == torch.float32)
    print(f"{label}:\n  {', '.join(names) or '(none)'}")


def quantized(**options):
    """The float checkpoint loaded with int8 weight-only quantization and these TorchAoConfig options."""
    quantization_config = TorchAoConfig(options.pop("quant_type", Int8WeightOnlyConfig()), **options)
    return AutoModelForCausalLM.from_pretrained(folder / "float", quantization_config=quantization_config)


show_float_linears("default", quantized())
# Wrong: a bare module name matches nothing, so nothing is skipped. A pattern is matched against the
# weight's name ("model.layers.0.mlp.down_proj.weight"): from its start, as a regex, or as its end.
show_float_linears("'down_proj'", quantized(modules_to_not_convert=["down_proj"]))
# Wrong: a list of your own replaces the default one, so lm_head is quantized now.
show_float_linears("one full name", quantized(modules_to_not_convert=["model.layers.1.mlp.down_proj"]))
# Right: full names or regular expressions, and lm_head named again.
show_float_linears("regex + lm_head", quantized(modules_to_not_convert=[r".*\.mlp\.down_proj", "lm_head"]))
# Right too: the end of the weight's name matches both down projections.
show_float_linears("end + lm_head", quantized(modules_to_not_convert=["down_proj.weight", "lm_head"]))

# torchao's own way: one config per name pattern; None keeps that layer in float.
per_name = FqnToConfig({r"re:.*\.mlp\.down_proj": None, r"re:model\.layers\.\d+\..*_proj": Int8WeightOnlyConfig()})
model = quantized(quant_type=per_name)
show_float_linears("FqnToConfig", model)
model.save_pretrained(folder / "mixed")
show_float_linears("saved, reloaded", AutoModelForCausalLM.from_pretrained(folder / "mixed"))

# The "_default" key of older examples still works in torchao 0.18, with a warning.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    FqnToConfig({r"re:.*\.mlp\.down_proj": None, "_default": Int8WeightOnlyConfig()})
for warning in caught:
    print(f"'_default': {warning.category.__name__}\n  {str(warning.message).split('. ')[0]}")
if not caught:
    print("'_default': no warning with this torchao version")
