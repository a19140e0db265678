"""A compressed-tensors checkpoint on a machine without the package, and how to check a load that raised nothing."""

import json
import logging
import shutil
import tempfile
from pathlib import Path

import torch
import transformers
from safetensors.torch import load_file, save_file
from transformers import AutoModelForCausalLM, CompressedTensorsConfig, Qwen3MoeConfig, Qwen3MoeForCausalLM

transformers.logging.disable_progress_bar()  # the loading bars go to stderr


class KeepLog(logging.Handler):
    """Keeps what transformers logs (its load report is a log line, not a Python warning)."""

    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


log = KeepLog()
transformers.logging.disable_default_handler()  # instead of stderr, into log.messages
transformers.logging.add_handler(log)

# A tiny mixture of experts (the Qwen3-MoE layout), random weights: the float model and its checkpoint.
# Its weights are drawn wider than the default (0.02) so that, as in a trained model, the experts shape the output.
torch.manual_seed(0)
config = Qwen3MoeConfig(vocab_size=256, hidden_size=64, intermediate_size=128, moe_intermediate_size=32,
                        num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2, head_dim=16,
                        num_experts=4, num_experts_per_tok=2, initializer_range=0.1)
reference = Qwen3MoeForCausalLM(config).eval()
root = Path(tempfile.mkdtemp())
reference.save_pretrained(root / "float")
prompt = torch.randint(0, config.vocab_size, (1, 16))
with torch.no_grad():
    expected = reference(prompt).logits


def copy_checkpoint(name, rename=None, quantization_config=None):
    """A copy of the float checkpoint with tensors renamed, or a quantization_config in config.json."""
    folder = root / name
    shutil.copytree(root / "float", folder)
    if rename:
        tensors = load_file(folder / "model.safetensors")
        save_file({rename(key): value for key, value in tensors.items()}, folder / "model.safetensors",
                  metadata={"format": "pt"})
    if quantization_config:
        saved = json.loads((folder / "config.json").read_text())
        saved["quantization_config"] = quantization_config
        (folder / "config.json").write_text(json.dumps(saved))
    return folder


def check_load(folder):
    """Load, then check what a load that raised nothing may still hide: the report's keys and the logits."""
    model, info = AutoModelForCausalLM.from_pretrained(folder, output_loading_info=True)
    with torch.no_grad():
        logits = model(prompt).logits
    print("  missing:", len(info["missing_keys"]), sorted(info["missing_keys"])[:2])
    print("  unexpected:", len(info["unexpected_keys"]), sorted(info["unexpected_keys"])[:2])
    print(f"  largest logit difference from the float model: {(logits - expected).abs().max().item():.3g} "
          f"(its logits span {(expected.max() - expected.min()).item():.3g})")
    print(f"  same next token as the float model: {(logits.argmax(-1) == expected.argmax(-1)).float().mean():.0%}")


# 1. The quantization_config llm-compressor writes (4-bit weights packed in int32, groups of 128).
#    Without the compressed-tensors package, transformers stops before any weight is read.
w4a16 = {"quant_method": "compressed-tensors", "format": "pack-quantized", "quantization_status": "compressed",
         "config_groups": {"group_0": {"targets": ["Linear"], "weights": {
             "num_bits": 4, "type": "int", "symmetric": True, "strategy": "group", "group_size": 128}}},
         "ignore": ["lm_head"]}
try:
    AutoModelForCausalLM.from_pretrained(copy_checkpoint("w4a16", quantization_config=w4a16))
except ImportError as error:
    print(f"from_pretrained: {type(error).__name__}: {error}")
try:
    CompressedTensorsConfig(run_compressed=False)
except ImportError as error:
    print(f"CompressedTensorsConfig(run_compressed=False): {type(error).__name__}")

# 2. Expert weights stored under names the model does not map (as the packed expert tensors of
#    transformers#47407 were on 5.10): the load raises nothing, and the experts are left random.
print("experts stored as weight_packed:")
check_load(copy_checkpoint("renamed", rename=lambda key: key.replace(".weight", ".weight_packed")
                           if ".experts." in key else key))
print("report logged:", any("LOAD REPORT" in message for message in log.messages))

# 3. The same checks on the checkpoint as it was saved.
print("as saved:")
check_load(root / "float")
