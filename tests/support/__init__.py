"""Test machinery (not tests): the docs model, the block runner, the lint rules, the warning policy, output checks."""
