"""An MXFP4 checkpoint (the gpt-oss format) loaded on a CPU: written from a tiny model, then dequantized to bfloat16."""

import json
import logging
import tempfile
from pathlib import Path

import torch
import transformers
from safetensors.torch import load_file, save_file
from torchao.prototype.mx_formats.mx_tensor import MXTensor, to_mx
from transformers import AutoModelForCausalLM, GptOssConfig, GptOssForCausalLM, Mxfp4Config
from transformers.trainer_utils import validate_quantization_for_training

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

# A tiny gpt-oss: 2 layers of 4 experts each, random weights, saved in bfloat16.
torch.manual_seed(0)
config = GptOssConfig(vocab_size=512, hidden_size=128, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, head_dim=32, num_local_experts=4,
                      num_experts_per_tok=2)
folder = Path(tempfile.mkdtemp())
GptOssForCausalLM(config).to(torch.bfloat16).save_pretrained(folder)

# Rewrite the expert weights as a gpt-oss checkpoint stores them: 4-bit values, two per byte
# ("_blocks", 16 bytes per block of 32), and one power-of-two scale per block ("_scales", a byte).
tensors = load_file(folder / "model.safetensors")
expert_names = [name for name in tensors if name.endswith(("experts.gate_up_proj", "experts.down_proj"))]
bf16_bytes = sum(tensors[name].nbytes for name in expert_names)
for name in expert_names:
    weight = tensors.pop(name).transpose(1, 2).contiguous()  # (experts, out, in): blocks run along "in"
    scale, data = to_mx(weight, torch.float4_e2m1fn_x2, 32)  # torchao's MX quantizer
    tensors[name + "_blocks"] = data.view(torch.uint8).reshape(*weight.shape[:2], -1, 16)
    tensors[name + "_scales"] = scale.view(torch.uint8)
    if name == "model.layers.0.mlp.experts.gate_up_proj":  # what these 4-bit values stand for, by torchao
        expected = MXTensor.to_mx(weight, torch.float4_e2m1fn_x2, 32).dequantize(torch.bfloat16).transpose(1, 2)
save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
mxfp4_bytes = sum(t.nbytes for name, t in tensors.items() if name.endswith(("_blocks", "_scales")))
config_file = folder / "config.json"
saved = json.loads(config_file.read_text())
saved["quantization_config"] = {"quant_method": "mxfp4", "modules_to_not_convert": [
    "model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"]}
config_file.write_text(json.dumps(saved))

# 1. As the checkpoint asks: MXFP4 kernels. Without accelerate, transformers stops before any weight.
try:
    AutoModelForCausalLM.from_pretrained(folder)
except ImportError as error:
    print(f"{type(error).__name__}: {error}")


def kept_in_mxfp4(model):
    """After from_pretrained: did the experts stay MXFP4? Natively, transformers swaps in
    Mxfp4GptOssExperts, whose weights hold the packed FP4 values; after a fallback the experts
    are GptOssExperts in bfloat16 and the model no longer counts as quantized."""
    experts = model.model.layers[0].mlp.experts
    print(f"experts: {type(experts).__name__}, weights in {experts.gate_up_proj.dtype}, "
          f"is_quantized: {model.is_quantized}")
    return type(experts).__name__ == "Mxfp4GptOssExperts"


# 2. Dequantize while loading: every expert weight becomes bfloat16.
model = AutoModelForCausalLM.from_pretrained(folder, quantization_config=Mxfp4Config(dequantize=True))
experts = model.model.layers[0].mlp.experts
print("logged:", *log.messages, sep="\n  ")
print("kept in MXFP4:", kept_in_mxfp4(model))
print("same values as torchao's MXFP4 dequantization:", torch.equal(experts.gate_up_proj.data, expected))
print(f"expert weights: {mxfp4_bytes:,} bytes as MXFP4, {bf16_bytes:,} bytes after loading "
      f"({bf16_bytes / mxfp4_bytes:.2f}x)")
validate_quantization_for_training(model)  # raises for a model that cannot be fine-tuned
print("fine-tuning check: passed (a plain bfloat16 model)")
