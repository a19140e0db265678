"""Tokenization and a vocabulary with real <pad> and <unk> tokens, in plain Python."""

import re
from collections import Counter
from pathlib import Path

import torch

PAD, UNK = "<pad>", "<unk>"
TOKEN = re.compile(r"[a-z0-9']+")


def tokenize(text):
    # lower-case words; punctuation is dropped
    return TOKEN.findall(text.lower())


def build_vocab(texts, min_freq=1):
    counter = Counter(tok for text in texts for tok in tokenize(text))
    itos = [PAD, UNK] + sorted(w for w, c in counter.items() if c >= min_freq)
    return {word: index for index, word in enumerate(itos)}


def encode(text, vocab):
    return [vocab.get(tok, vocab[UNK]) for tok in tokenize(text)]


def pad_batch(sequences, pad_index=0):
    lengths = torch.tensor([len(s) for s in sequences])
    batch = torch.full((len(sequences), int(lengths.max())), pad_index, dtype=torch.long)
    for row, seq in enumerate(sequences):
        batch[row, : len(seq)] = torch.tensor(seq)
    return batch, lengths


def load_corpus():
    path = Path(__file__).parent / "data" / "topics.tsv"
    rows = [ln.split("\t") for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    return [(label, text) for label, text in rows]


if __name__ == "__main__":
    corpus = load_corpus()
    vocab = build_vocab([text for _, text in corpus])
    print("sentences:", len(corpus), "vocabulary:", len(vocab))
    print("first entries:", list(vocab.items())[:4])
    print(tokenize("Heavy RAIN, tomorrow!"))
    ids = [encode("heavy rain tomorrow", vocab), encode("a zebra ate the soup", vocab)]
    print(ids)
    batch, lengths = pad_batch(ids, pad_index=vocab[PAD])
    print(batch)
    print(lengths)
