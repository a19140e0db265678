"""Quantize a Hugging Face causal LM with TorchAoConfig on a CPU: a tiny Llama built from a config, nothing downloaded."""

import tempfile
from collections import Counter
from pathlib import Path

import torch
import transformers
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, Int8WeightOnlyConfig
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM, TorchAoConfig

transformers.logging.disable_progress_bar()  # the loading bars go to stderr; this model loads in a blink


def weight_types(model):
    """How many nn.Linear layers hold each kind of weight tensor."""
    return dict(Counter(type(m.weight).__name__ for m in model.modules() if isinstance(m, nn.Linear)))


# A small Llama-style model from a config: random weights, seeded, nothing downloaded.
torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder / "float")  # stands in for a model id on the Hub

prompt = torch.tensor([[1, 5, 9, 42, 7]])  # token ids directly: no tokenizer to download
greedy = {"max_new_tokens": 8, "do_sample": False}
float_model = AutoModelForCausalLM.from_pretrained(folder / "float")
with torch.no_grad():
    reference = float_model.generate(prompt, **greedy)[0, prompt.shape[1]:]
    reference_logits = float_model(prompt).logits
print(f"float32:\n  Linear weights {weight_types(float_model)}\n  tokens {reference.tolist()}")

for quant_type in (Int8WeightOnlyConfig(), Int8DynamicActivationInt8WeightConfig()):
    # The weights are quantized while they load: each nn.Linear gets an int8 tensor subclass.
    model = AutoModelForCausalLM.from_pretrained(folder / "float", quantization_config=TorchAoConfig(quant_type))
    with torch.no_grad():
        tokens = model.generate(prompt, **greedy)[0, prompt.shape[1]:]
        change = (model(prompt).logits - reference_logits).abs().max().item()
    print(f"{type(quant_type).__name__}:\n  Linear weights {weight_types(model)}")
    print("  lm_head:", type(model.lm_head.weight).__name__, model.lm_head.weight.dtype)
    print(f"  same tokens as float32: {torch.equal(tokens, reference)}\n  largest logit change {change:.3f}")
