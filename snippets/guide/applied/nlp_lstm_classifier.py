"""An embedding + LSTM topic classifier trained on the guide's small corpus."""

import random

import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence

from nlp_vocab import PAD, build_vocab, encode, load_corpus, pad_batch

torch.manual_seed(0)
random.seed(0)

corpus = load_corpus()
labels = sorted({label for label, _ in corpus})
random.shuffle(corpus)
split = int(0.8 * len(corpus))
train, test = corpus[:split], corpus[split:]
vocab = build_vocab([text for _, text in train])  # the vocabulary sees the training split only


def tensors(rows):
    batch, lengths = pad_batch([encode(text, vocab) for _, text in rows], pad_index=vocab[PAD])
    target = torch.tensor([labels.index(label) for label, _ in rows])
    return batch, lengths, target


class TextClassifier(nn.Module):
    def __init__(self, vocab_size, embed_dim, hidden_dim, num_classes, pad_index):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=pad_index)
        self.lstm = nn.LSTM(embed_dim, hidden_dim, batch_first=True)
        self.dropout = nn.Dropout(0.3)
        self.fc = nn.Linear(hidden_dim, num_classes)

    def forward(self, tokens, lengths):
        embedded = self.embedding(tokens)
        # packing makes the LSTM stop at each sentence's real end, not at the padding
        packed = pack_padded_sequence(embedded, lengths, batch_first=True, enforce_sorted=False)
        _, (hidden, _) = self.lstm(packed)
        return self.fc(self.dropout(hidden[-1]))


model = TextClassifier(len(vocab), 32, 32, len(labels), vocab[PAD])
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
x_train, len_train, y_train = tensors(train)
x_test, len_test, y_test = tensors(test)

for epoch in range(8):
    model.train()
    for start in range(0, len(train), 32):
        sl = slice(start, start + 32)
        optimizer.zero_grad()
        loss = loss_fn(model(x_train[sl], len_train[sl]), y_train[sl])
        loss.backward()
        optimizer.step()

model.eval()
with torch.no_grad():
    predicted = model(x_test, len_test).argmax(dim=1)
accuracy = (predicted == y_test).float().mean().item()
print("classes:", labels)
print(f"train {len(train)} / test {len(test)} sentences")
print(f"held-out accuracy >= 0.9: {accuracy >= 0.9}")
assert accuracy >= 0.9, accuracy
