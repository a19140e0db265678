"""save_pretrained and from_pretrained with a torchao-quantized model: what is written, its size, and what comes back."""

import json
import tempfile
from collections import Counter
from pathlib import Path

import torch
import transformers
from safetensors import safe_open
from torch import nn
from torchao.quantization import Int8WeightOnlyConfig
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM, TorchAoConfig

transformers.logging.disable_progress_bar()  # the loading bars go to stderr


def kilobytes_on_disk(path):
    """The size of a saved model's weights file in KB."""
    return round((path / "model.safetensors").stat().st_size / 1000)


torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder / "float")
quantized = AutoModelForCausalLM.from_pretrained(folder / "float", quantization_config=TorchAoConfig(Int8WeightOnlyConfig()))
quantized.save_pretrained(folder / "int8")
print("files:", sorted(f.name for f in (folder / "int8").iterdir()))
print(f"model.safetensors: float32 {kilobytes_on_disk(folder / 'float')} KB, int8 {kilobytes_on_disk(folder / 'int8')} KB")

# The quantization config travels in config.json; the int8 weights are plain tensors in safetensors.
saved = json.loads((folder / "int8" / "config.json").read_text())["quantization_config"]
print("config.json:", saved["quant_method"], saved["quant_type"]["default"]["_type"])
kilobytes = Counter()
print("model.layers.0.mlp.down_proj is stored as:")
with safe_open(folder / "int8" / "model.safetensors", framework="pt") as f:
    for name in f.keys():
        tensor = f.get_tensor(name)
        kilobytes[str(tensor.dtype).removeprefix("torch.")] += tensor.nbytes / 1000
        if name.startswith("model.layers.0.mlp.down_proj."):
            print(f"  {name.removeprefix('model.layers.0.mlp.down_proj.')}: {tensor.dtype} {list(tensor.shape)}")
print("KB by dtype:", {dtype: round(kb) for dtype, kb in kilobytes.items()})

# safe_serialization=False of older tutorials: transformers 5 has no such option and ignores it.
quantized.save_pretrained(folder / "pickle", safe_serialization=False)
print("safe_serialization=False wrote:", sorted(f.name for f in (folder / "pickle").iterdir() if f.suffix != ".json"))

# Reload: no quantization_config needed, config.json carries it.
reloaded = AutoModelForCausalLM.from_pretrained(folder / "int8")
prompt = torch.tensor([[1, 5, 9, 42, 7]])
with torch.no_grad():
    same_logits = torch.equal(reloaded(prompt).logits, quantized(prompt).logits)
    same_tokens = torch.equal(reloaded.generate(prompt, max_new_tokens=8, do_sample=False),
                              quantized.generate(prompt, max_new_tokens=8, do_sample=False))
weights = {type(m.weight).__name__ for n, m in reloaded.named_modules() if isinstance(m, nn.Linear) and n != "lm_head"}
print(f"reloaded: weights {weights}\n  logits equal {same_logits}, tokens equal {same_tokens}")
