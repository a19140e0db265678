"""Version 1 of torchao's int8 configs is gone: building one, and loading a checkpoint saved with one."""

import json
import tempfile
import warnings
from pathlib import Path

import torch
import transformers
from torchao.quantization import Int8WeightOnlyConfig
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM, TorchAoConfig

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

try:
    Int8WeightOnlyConfig(version=1)
except ValueError as error:
    print(f"{type(error).__name__}: {error}")

# A checkpoint quantized through transformers records the config and its version in config.json.
torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder / "float")
model = AutoModelForCausalLM.from_pretrained(folder / "float", quantization_config=TorchAoConfig(Int8WeightOnlyConfig()))
model.save_pretrained(folder / "int8")
config_file = folder / "int8" / "config.json"
saved = json.loads(config_file.read_text())
recorded = saved["quantization_config"]["quant_type"]["default"]
print("config.json records:", recorded["_type"], "version", recorded["_version"])

# The same checkpoint as an older torchao wrote it: version 1.
recorded["_version"] = 1
config_file.write_text(json.dumps(saved))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        AutoModelForCausalLM.from_pretrained(folder / "int8")
    except ValueError as error:
        print(f"{type(error).__name__}: {error}")
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
