"""A BERT-style classifier from a small local BertConfig (no download), trained from random weights for a few epochs."""

import random

import torch
from torch import nn
from transformers import BertConfig, BertModel

from nlp_vocab import PAD, build_vocab, encode, load_corpus, pad_batch

torch.manual_seed(0)
random.seed(0)

corpus = load_corpus()
labels = sorted({label for label, _ in corpus})
random.shuffle(corpus)
train, test = corpus[:288], corpus[288:]
vocab = build_vocab([text for _, text in train])
CLS = len(vocab)  # one extra id for a [CLS]-style first token


class BERTClassifier(nn.Module):
    def __init__(self, config, num_classes):
        super().__init__()
        self.bert = BertModel(config)  # random weights: built from the config, nothing downloaded
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(config.hidden_size, num_classes)

    def forward(self, input_ids, attention_mask):
        outputs = self.bert(input_ids=input_ids, attention_mask=attention_mask)
        return self.classifier(self.dropout(outputs.pooler_output))


def batch_of(rows):
    ids, _ = pad_batch([[CLS] + encode(text, vocab) for _, text in rows], pad_index=vocab[PAD])
    attention_mask = (ids != vocab[PAD]).long()  # 1 = real token, 0 = padding
    target = torch.tensor([labels.index(label) for label, _ in rows])
    return ids, attention_mask, target


config = BertConfig(
    vocab_size=len(vocab) + 1, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
    intermediate_size=64, max_position_embeddings=32, pad_token_id=vocab[PAD],
)
model = BERTClassifier(config, len(labels))
print(f"parameters: {sum(p.numel() for p in model.parameters()):,}")

optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)  # a model trained from scratch; see the text
loss_fn = nn.CrossEntropyLoss()
ids, mask, target = batch_of(train)
epoch_losses = []
for epoch in range(6):
    model.train()
    total = 0.0
    for start in range(0, len(train), 32):
        sl = slice(start, start + 32)
        optimizer.zero_grad()
        loss = loss_fn(model(ids[sl], mask[sl]), target[sl])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        total += loss.item()
    epoch_losses.append(total / 9)
print("loss fell from epoch 1 to epoch 6:", epoch_losses[-1] < epoch_losses[0] / 2)

model.eval()
test_ids, test_mask, test_target = batch_of(test)
with torch.no_grad():
    accuracy = (model(test_ids, test_mask).argmax(1) == test_target).float().mean().item()
print(f"held-out accuracy >= 0.9: {accuracy >= 0.9}")
assert accuracy >= 0.9, accuracy
