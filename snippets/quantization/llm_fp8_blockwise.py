"""A fine-grained FP8 checkpoint (float8 weights, one scale per 128x128 block) on a CPU: written, then refused."""

import json
import tempfile
from pathlib import Path

import torch
import transformers
from safetensors.torch import load_file, save_file
from transformers import AutoModelForCausalLM, FineGrainedFP8Config, LlamaConfig, LlamaForCausalLM
from transformers.integrations.finegrained_fp8 import Fp8Quantize
from transformers.quantizers.quantizer_finegrained_fp8 import FineGrainedFP8HfQuantizer

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

# A tiny Llama in bfloat16 stands in for a downloaded checkpoint.
torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=4)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).to(torch.bfloat16).save_pretrained(folder)

# transformers' own FP8 quantizer writes what such a checkpoint holds: "weight" in float8_e4m3fn
# and "weight_scale_inv", one float32 per 128x128 block of it.
fp8 = FineGrainedFP8Config(weight_block_size=[128, 128], modules_to_not_convert=["lm_head"])
quantize = Fp8Quantize(FineGrainedFP8HfQuantizer(fp8))
tensors = load_file(folder / "model.safetensors")
layer_weights = [name for name in tensors if ".layers." in name and name.endswith("proj.weight")]
bf16_bytes = sum(tensors[name].nbytes for name in layer_weights)
for name in layer_weights:
    tensors.update(quantize.convert({name: tensors[name]}))
save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
fp8_bytes = sum(t.nbytes for name, t in tensors.items() if name.endswith(("proj.weight", "weight_scale_inv")))
config_file = folder / "config.json"
saved = json.loads(config_file.read_text())
saved["quantization_config"] = fp8.to_dict()
config_file.write_text(json.dumps(saved, default=str))
name = "model.layers.0.mlp.down_proj"
print(f"{name}: weight {tensors[name + '.weight'].dtype} {tuple(tensors[name + '.weight'].shape)}, "
      f"weight_scale_inv {tensors[name + '.weight_scale_inv'].dtype} {tuple(tensors[name + '.weight_scale_inv'].shape)}")
print(f"Linear weights of the layers: {fp8_bytes:,} bytes as FP8, {bf16_bytes:,} bytes in bfloat16 "
      f"({bf16_bytes / fp8_bytes:.2f}x)")

# Loading, as the checkpoint asks and dequantized: both need accelerate before anything else.
for options in ({}, {"quantization_config": FineGrainedFP8Config(weight_block_size=[128, 128], dequantize=True)}):
    try:
        AutoModelForCausalLM.from_pretrained(folder, **options)
    except ImportError as error:
        print(f"{type(error).__name__}: {error}")
