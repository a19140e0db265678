"""Loading a causal LM in 16 bits with dtype=, what torch_dtype= does now, and how it differs from autocast."""

import logging
import tempfile
from pathlib import Path

import torch
import transformers
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM

transformers.logging.disable_progress_bar()  # the loading bars go to stderr


class KeepLog(logging.Handler):
    """Keeps what transformers logs (its notices are log lines, not Python warnings)."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


log = KeepLog()
transformers.logging.disable_default_handler()  # instead of stderr, into log.messages
transformers.logging.add_handler(log)

torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder)  # saved in float32
prompt = torch.tensor([[1, 5, 9, 42, 7]])


def describe(label, model, logits):
    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    print(f"{label:<28} weights {model.dtype}, {weight_bytes:,} bytes; logits {logits.dtype}")


stored = AutoModelForCausalLM.from_pretrained(folder)  # no dtype: what config.json says, float32 here
with torch.no_grad():
    describe("as stored", stored, stored(prompt).logits)
    # autocast: float32 weights stay in memory; matmuls run in bfloat16 on copies made per call
    with torch.autocast("cpu", dtype=torch.bfloat16):
        describe("as stored, under autocast", stored, stored(prompt).logits)

    bf16 = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.bfloat16)  # stored in bfloat16
    describe("dtype=torch.bfloat16", bf16, bf16(prompt).logits)

    # The old name still works; transformers logs a notice once (not a Python warning).
    old = AutoModelForCausalLM.from_pretrained(folder, torch_dtype=torch.bfloat16)
    describe("torch_dtype=torch.bfloat16", old, old(prompt).logits)
print("logged:", *log.messages, sep="\n  ")
