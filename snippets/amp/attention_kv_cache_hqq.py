"""A quantized KV cache with the hqq back end on a CPU: 4 and 2 bits against an unquantized cache."""

import tempfile
import warnings
from pathlib import Path

import torch

with warnings.catch_warnings():
    # Importing hqq (transformers does, when hqq is installed) calls torch.compile, which loads
    # torch.utils.mkldnn, which still uses the deprecated torch.jit.script_method (torch 2.13):
    # hidden by Python's default filters, an error where warnings are errors.
    warnings.filterwarnings("ignore", message="`torch.jit.script_method` is deprecated", category=DeprecationWarning)
    import torch.utils.mkldnn  # noqa: F401

import transformers  # noqa: E402
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM, QuantizedCache  # noqa: E402

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

# A small Llama saved to a folder stands in for a downloaded checkpoint.
torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder)
model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32)
prompt = torch.randint(0, config.vocab_size, (1, 256))
settings = dict(max_new_tokens=16, do_sample=False, return_dict_in_generate=True, output_scores=True)

reference = model.generate(prompt, **settings)
for nbits in (4, 2):
    # The class, built by hand and passed as past_key_values (cache_implementation="quantized" with
    # cache_config={"backend": "hqq", "nbits": nbits} builds the same one).
    cache = QuantizedCache(backend="hqq", config=model.config, nbits=nbits, residual_length=32)
    out = model.generate(prompt, past_key_values=cache, **settings)
    layer = out.past_key_values.layers[0]
    packed, meta = layer._quantized_keys  # the keys hqq stores: packed integers, then scale and zero
    stored = packed.nbytes + meta["scale"].nbytes + meta["zero"].nbytes
    length = layer.cumulative_length - layer.keys.shape[-2]  # tokens held quantized
    full = length * config.num_key_value_heads * (config.hidden_size // config.num_attention_heads) * 4
    change = max((a - b).abs().max().item() for a, b in zip(out.scores, reference.scores))
    print(f"{nbits} bits: {type(layer).__name__}, keys of {length} tokens in {stored} bytes "
          f"(float32: {full}), same tokens: {torch.equal(out.sequences, reference.sequences)}, "
          f"largest logit change {change:.1g}")
