"""Machinery the tests use: the docs model, the block runner, the lint rules, the warning policy."""
