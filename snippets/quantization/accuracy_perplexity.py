import copy
import math

import torch
from torch import nn
from torchao.quantization import Int8DynamicActivationInt8WeightConfig, IntxWeightOnlyConfig, quantize_
from torchao.quantization.granularity import PerGroup

from reference_impl.quantization import replaced_modules

torch.set_num_threads(1)  # tiny model: one thread is faster than two fighting over small ops
torch.manual_seed(0)
generator = torch.Generator().manual_seed(0)

# A small synthetic language: "the quick fox sees a dog ." Its own probabilities are known, so the
# best perplexity any model can reach on it can be computed.
DETS = ["the", "a", "every", "no"]
ADJECTIVES = ["small", "old", "quick", "lazy", "red", "quiet"]
NOUNS = ["cat", "dog", "bird", "fox", "child", "teacher", "robot", "farmer"]
VERBS = ["sees", "follows", "likes", "helps", "finds", "ignores"]
WORDS = DETS + ADJECTIVES + NOUNS + VERBS + ["."]


def distribution(words, weights=None):
    p = torch.zeros(len(WORDS), dtype=torch.float64)
    p[[WORDS.index(w) for w in words]] = torch.tensor(weights or [1.0] * len(words), dtype=torch.float64)
    return p / p.sum()


DET, NOUN = distribution(DETS, [4, 2, 1, 1]), distribution(NOUNS, [8, 4, 3, 2, 2, 1, 1, 1])
VERB, END = distribution(VERBS), distribution(["."])
ADJECTIVE_OR_NOUN = 0.3 * distribution(ADJECTIVES) + 0.7 * NOUN


def sample(p):
    i = torch.multinomial(p, 1, generator=generator).item()
    return i, math.log(p[i])


def noun_phrase():
    words = [sample(DET), sample(ADJECTIVE_OR_NOUN)]
    if WORDS[words[-1][0]] in ADJECTIVES:
        words.append(sample(NOUN))
    return words


def text(sentences):
    """Word ids and the true log-probability of each word."""
    ids, logp = zip(*[w for _ in range(sentences) for w in noun_phrase() + [sample(VERB)] + noun_phrase() + [sample(END)]])
    return torch.tensor(ids), torch.tensor(logp)


CONTEXT = 4  # the model sees the 4 previous words


def windows(ids):
    starts = torch.arange(len(ids) - CONTEXT)
    return ids[starts[:, None] + torch.arange(CONTEXT)], ids[starts + CONTEXT]


class WordLM(nn.Module):
    """A small neural language model: 4 word embeddings -> hidden layer -> a score for every word."""

    def __init__(self, vocab, dim=8, hidden=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.hidden = nn.Linear(CONTEXT * dim, hidden)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, context):
        return self.head(torch.relu(self.hidden(self.embed(context).flatten(1))))


train_ids, _ = text(1500)
test_ids, test_logp = text(500)  # held out: sentences the model never saw
print(" ".join(WORDS[i] for i in test_ids[:13]))
x_train, y_train = windows(train_ids)
x_test, y_test = windows(test_ids)
model = WordLM(len(WORDS))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(100):
    loss = nn.functional.cross_entropy(model(x_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
model.eval()


def perplexity(m):
    """exp(mean negative log-likelihood of the held-out words), and the next-word accuracy."""
    with torch.no_grad():
        logits = m(x_test)
    return math.exp(nn.functional.cross_entropy(logits, y_test).item()), (logits.argmax(1) == y_test).float().mean().item()


print(f"{len(y_test)} held-out words; the language's own perplexity (the best possible): "
      f"{math.exp(-test_logp[CONTEXT:].mean().item()):.2f}")
int4 = IntxWeightOnlyConfig(weight_dtype=torch.int4, granularity=PerGroup(32))
choices = {  # each one quantizes a copy of the model in place
    "float32": lambda m: None,
    "int8 dynamic": lambda m: quantize_(m, Int8DynamicActivationInt8WeightConfig()),
    "int4, every Linear": lambda m: quantize_(m, int4),
    "int4, head only": lambda m: quantize_(m, int4, filter_fn=lambda module, fqn: fqn == "head"),
    "int4, head float32": lambda m: quantize_(m, int4, filter_fn=lambda module, fqn: fqn == "hidden"),
}
print(f"{'choice':20} {'quantized':12} {'perplexity':>10} {'next-word accuracy':>18}")
for label, apply in choices.items():
    candidate = copy.deepcopy(model)
    apply(candidate)
    ppl, acc = perplexity(candidate)
    print(f"{label:20} {','.join(replaced_modules(model, candidate)) or '-':12} {ppl:10.3f} {acc:18.3f}")

# A group size must divide the layer's input size: 3 words of 8 give 24 inputs, not a multiple of 32.
try:
    quantize_(nn.Sequential(nn.Linear(3 * 8, 64)), int4)
except AssertionError as error:
    print(type(error).__name__, error)
