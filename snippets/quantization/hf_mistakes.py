"""Three ways the Hugging Face + torchao path goes wrong, with the errors they give."""

import tempfile
import warnings
from pathlib import Path

import torch
import transformers
from torch import nn
from torchao.quantization import Int8WeightOnlyConfig, quantize_
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM, TorchAoConfig

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder / "float")

# 1. The string form of older tutorials is gone: pass a torchao config object.
try:
    TorchAoConfig("int8_weight_only")
except ValueError as error:
    print(f"1. {type(error).__name__}\n   {str(error).split('. ')[0]}")

# 2. quantize_ on a loaded model, then save_pretrained: transformers does not know the model is quantized.
model = AutoModelForCausalLM.from_pretrained(folder / "float")
quantize_(model, Int8WeightOnlyConfig())
try:
    with warnings.catch_warnings():
        # safetensors reaches the error through the deprecated TypedStorage.
        warnings.filterwarnings("ignore", message="TypedStorage is deprecated", category=UserWarning)
        model.save_pretrained(folder / "direct")
except RuntimeError as error:
    print(f"2. {type(error).__name__}\n   {error}")

# 3. quantization_config=None passed on: the checkpoint's own config is dropped, its int8 weights are
#    not loaded, and the Linear layers get new random weights (transformers reports them as MISSING).
int8_model = AutoModelForCausalLM.from_pretrained(folder / "float", quantization_config=TorchAoConfig(Int8WeightOnlyConfig()))
int8_model.save_pretrained(folder / "int8")
transformers.logging.set_verbosity_error()  # its load report goes to stderr; the missing keys are printed below
model, info = AutoModelForCausalLM.from_pretrained(folder / "int8", quantization_config=None, output_loading_info=True)
transformers.logging.set_verbosity_warning()
weights = {type(m.weight).__name__ for m in model.modules() if isinstance(m, nn.Linear)}
print(f"3. weights {weights}\n   {len(info['missing_keys'])} weights missing, such as\n   {sorted(info['missing_keys'])[0]}")
