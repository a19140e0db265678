"""Mutations of the number explorer's rounding (docs/overrides/assets/number-explorer.js, issue 43):
the JavaScript must store what PyTorch stores, bit for bit, and tests/test_site_explorer.py compares it
with torch, reference_impl and torchao over thousands of values. Each mutation needs a site build.
"""

_JS = "docs/overrides/assets/number-explorer.js"
_TEST = ["tests/test_site_explorer.py", "-k", "stored_bits"]

MUTATIONS = [
    # ties away from zero instead of to even: every tie of every format rounds up
    Mutation("explorer: ties round away from zero (not to even)",
             EDIT.format(path=_JS, old="return down % 2 === 0 ? down : down + 1;", new="return down + 1;"),
             _TEST, r"test_stored_bits_match_torch_and_the_reference"),
    # the reader's double rounded once, straight to the format: PyTorch goes through float32 first
    Mutation("explorer: rounds the typed double straight to the format (no float32 first)",
             EDIT.format(path=_JS, old="const magnitude = Math.abs(float32FromBits(bits32));",
                         new="const magnitude = Math.abs(value);"),
             _TEST, r"test_stored_bits_match_torch_and_the_reference"),
]
