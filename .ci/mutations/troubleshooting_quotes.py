"""Mutations for the messages the troubleshooting page quotes in its symptom sections' prose
(tests/test_troubleshooting_quotes.py): a library's message quoted with another version than the
installed library raises, and a quoted PyTorch message reworded so that no checked output prints it.
Neither needs a site; each test runs in seconds."""

# `Mutation` and `EDIT` are provided by .ci/prove_tests_fail.py, which loads this file.

MUTATIONS = [
    Mutation("a troubleshooting quote of transformers' message with an older bitsandbytes minimum (llm-int8: >=0.46.1 -> >=0.45.0, both languages)",
             "sed -i 's/`pip install -U bitsandbytes>=0.46.1` ``/`pip install -U bitsandbytes>=0.45.0` ``/'"
             " docs/en/troubleshooting.md docs/ja/troubleshooting.md"
             " && grep -q 'bitsandbytes>=0.45.0' docs/en/troubleshooting.md && grep -q 'bitsandbytes>=0.45.0' docs/ja/troubleshooting.md",
             ["tests/test_troubleshooting_quotes.py"],
             r"test_a_library_message_is_quoted_as_the_installed_library_raises_it\[llm-int8-(en|ja)\]"),
    Mutation("a troubleshooting quote in a symptom's prose reworded (the MPS autocast warning, English page: not supported -> unsupported)",
             EDIT.format(path="docs/en/troubleshooting.md",
                          old="  `UserWarning: In MPS autocast, but the target dtype is not supported. Disabling autocast.` and\n",
                          new="  `UserWarning: In MPS autocast, but the target dtype is unsupported. Disabling autocast.` and\n"),
             ["tests/test_troubleshooting_quotes.py"],
             r"test_every_message_quoted_in_the_symptom_sections_has_a_source\[en\]"),
]
