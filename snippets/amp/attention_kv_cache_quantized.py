"""A quantized KV cache in transformers: the fp8 back end on a CPU, and the two that need a package."""

import tempfile
from pathlib import Path

import torch
import transformers
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

# A small Llama saved to a folder stands in for a downloaded checkpoint.
torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder)
model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.bfloat16)
prompt = torch.randint(0, config.vocab_size, (1, 16))

try:
    from transformers import QuantizedCacheConfig  # a common mistake: transformers 4's class
except ImportError as error:
    print(f"ImportError: {str(error).split(' (')[0]}")  # the message goes on with the file's path

# The cache is chosen per call: cache_implementation="quantized" and a plain dict for its options.
out = model.generate(prompt, max_new_tokens=8, do_sample=False, cache_implementation="quantized",
                     cache_config={"backend": "fp8"}, return_dict_in_generate=True)
cache = out.past_key_values
print(type(cache).__name__, [type(layer).__name__ for layer in cache.layers])
keys, scale = cache.layers[0]._quantized_keys  # what the fp8 layer stores: the keys and one scale
print(f"layer 0 keys: {keys.dtype}, shape {tuple(keys.shape)}, {keys.nbytes} bytes "
      f"(bfloat16: {keys.numel() * 2} bytes)")

# The prompt's keys, computed again without quantization, against what the cache gives back.
reference = model.generate(prompt, max_new_tokens=8, do_sample=False, return_dict_in_generate=True)
exact = reference.past_key_values.layers[0].keys[:, :, :16].float()
restored = keys[:, :, :16].float() * scale
print(f"error of the prompt's keys within 1/16 of the largest key: "
      f"{bool((restored - exact).abs().max() <= exact.abs().max() / 16)}")

for backend in ("quanto", "hqq"):  # group-wise int4 (and int2) back ends, each a package of its own
    try:
        model.generate(prompt, max_new_tokens=8, do_sample=False, cache_implementation="quantized",
                       cache_config={"backend": backend, "nbits": 4})
    except ImportError as error:
        print(f"{backend}: ImportError: {error}")
