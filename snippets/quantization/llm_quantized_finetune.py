"""A quantized causal LM: what it refuses (casts, fine-tuning its weights) and the QLoRA split that trains."""

import tempfile
from pathlib import Path

import torch
import transformers
from torch import nn
from torchao.quantization import Int8WeightOnlyConfig
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, LlamaConfig, LlamaForCausalLM, TorchAoConfig
from transformers.trainer_utils import validate_quantization_for_training

transformers.logging.disable_progress_bar()  # the loading bars go to stderr

torch.manual_seed(0)
config = LlamaConfig(vocab_size=512, hidden_size=128, intermediate_size=256, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2)
folder = Path(tempfile.mkdtemp())
LlamaForCausalLM(config).save_pretrained(folder)

# int8 weights (torchao) stand in for bitsandbytes' 4-bit ones, which need a package this page does not install.
model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.bfloat16,
                                             quantization_config=TorchAoConfig(Int8WeightOnlyConfig()))
for action in (model.half, model.float, lambda: validate_quantization_for_training(model)):
    try:
        action()
    except ValueError as error:
        print(f"{type(error).__name__}: {error}")


class LoRALinear(nn.Module):
    """A frozen (quantized) Linear plus a trainable low-rank update B @ A, as QLoRA adds."""

    def __init__(self, base, rank=8, alpha=16):
        super().__init__()
        self.base = base
        self.lora_a = nn.Linear(base.in_features, rank, bias=False, dtype=torch.bfloat16)
        self.lora_b = nn.Linear(rank, base.out_features, bias=False, dtype=torch.bfloat16)
        nn.init.zeros_(self.lora_b.weight)  # starts as the unchanged model
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + self.lora_b(self.lora_a(x)) * self.scale


model.requires_grad_(False)  # every weight of the base model is frozen
for layer in model.model.layers:
    layer.self_attn.q_proj = LoRALinear(layer.self_attn.q_proj)
    layer.self_attn.v_proj = LoRALinear(layer.self_attn.v_proj)
trainable = [p for p in model.parameters() if p.requires_grad]
frozen = [p for p in model.parameters() if not p.requires_grad]
print(f"trainable: {sum(p.numel() for p in trainable):,} values in {trainable[0].dtype} (the adapters); "
      f"frozen: {sum(p.numel() for p in frozen):,}")
q_proj = model.model.layers[0].self_attn.q_proj.base
print("q_proj weight:", type(q_proj.weight).__name__, "requires_grad", q_proj.weight.requires_grad)

before = q_proj.weight.qdata.clone()
optimizer = torch.optim.AdamW(trainable, lr=1e-3)
tokens = torch.randint(0, 512, (4, 16))
for step in range(3):
    loss = model(tokens, labels=tokens).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
print("adapters trained:", model.model.layers[0].self_attn.q_proj.lora_b.weight.abs().sum().item() > 0)
print("int8 weights unchanged:", torch.equal(q_proj.weight.qdata, before))

# The same split with bitsandbytes: the config QLoRA loads its base model with (not run here).
qlora = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
                           bnb_4bit_compute_dtype=torch.bfloat16)
print({key: value for key, value in qlora.to_dict().items() if key.startswith("bnb_4bit")})
