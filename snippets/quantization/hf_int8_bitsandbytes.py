"""Loading a language model in int8 with bitsandbytes (LLM.int8()), where its packages are missing."""

import tempfile
from pathlib import Path

import transformers
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, LlamaConfig, LlamaForCausalLM

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

# A small Llama saved to a folder stands in for a downloaded checkpoint.
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder)

# transformers checks the packages before it reads a single weight.
try:
    model = AutoModelForCausalLM.from_pretrained(folder, quantization_config=BitsAndBytesConfig(load_in_8bit=True))
except ImportError as error:
    print(f"{type(error).__name__}: {error}")
