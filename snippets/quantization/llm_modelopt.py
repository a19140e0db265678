"""An NVIDIA ModelOpt checkpoint ("quant_method": "modelopt") given to transformers, which has no quantizer for it."""

import json
import logging.handlers
import tempfile
from pathlib import Path

import torch
import transformers
from safetensors.torch import load_file, save_file
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

log = logging.handlers.BufferingHandler(capacity=1000)  # keeps what transformers logs: its notices are log lines
transformers.logging.disable_default_handler()  # instead of stderr, into log.buffer
transformers.logging.add_handler(log)

# A tiny Llama, written as ModelOpt's NVFP4 export lays out a layer: two 4-bit values per uint8,
# a float8 scale per 16 values, and two float32 scales per layer.
torch.manual_seed(0)
config = LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder)
tensors = load_file(folder / "model.safetensors")
for name in [n for n in tensors if n.endswith("proj.weight")]:
    rows, columns = tensors[name].shape
    prefix = name.removesuffix(".weight")
    tensors[name] = torch.randint(0, 256, (rows, columns // 2), dtype=torch.uint8)
    tensors[prefix + ".weight_scale"] = torch.ones(rows, columns // 16).to(torch.float8_e4m3fn)
    tensors[prefix + ".weight_scale_2"] = torch.tensor(1.0)
    tensors[prefix + ".input_scale"] = torch.tensor(1.0)
save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
saved = json.loads((folder / "config.json").read_text())
saved["quantization_config"] = {"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16}
(folder / "config.json").write_text(json.dumps(saved))

try:
    AutoModelForCausalLM.from_pretrained(folder)
except RuntimeError as error:
    print(f"{type(error).__name__}: {error}")
messages = [record.getMessage() for record in log.buffer]
unknown = next(m for m in messages if m.startswith("Unknown quantization type"))
print("logged first:", unknown.split(" - ")[0], "...", unknown.split(". ")[-2] + ".")
rows = [" ".join(line.split()) for m in messages for line in m.splitlines() if "| MISMATCH" in line]
print(f"the load report: {len(rows)} kinds of weight mismatched, e.g.")
print(" ", next(row for row in rows if "q_proj" in row))
