"""Lines that Python-Markdown moves out of their list item (2026-11-30, Japanese review cx): a quoted
message indented by 2 spaces under a bullet ends the list (llm-checkpoints, ja), and a wrapped line that
starts with ``6144.`` becomes a new item whose number disappears (attention, en). Both are caught
without a built site by tests/test_doc_lint.py::test_list_items_keep_their_lines.

Select them with `-k "list items"`. Neither is in CI_MUTATIONS (the CI set already has a no-site page
check of this kind).
"""

# `Mutation` and `EDIT` are provided by .ci/prove_tests_fail.py, which loads this file.

MUTATIONS = [
    Mutation("list items: a quoted message under a bullet indented by 2 spaces (ja llm-checkpoints)",
             EDIT.format(path="docs/ja/quantization/llm-checkpoints.md",
                         old="\n\n    <!-- textlint-disable ja-technical-writing/sentence-length -->\n    `FP8 quantized",
                         new="\n\n  <!-- textlint-disable ja-technical-writing/sentence-length -->\n  `FP8 quantized"),
             ["tests/test_doc_lint.py", "-k", "list_items"],
             r"test_list_items_keep_their_lines\[ja/quantization/llm-checkpoints\.md\]"),
    Mutation("list items: a wrapped line of a bullet starts with '6144.' (en attention)",
             EDIT.format(path="docs/en/amp/attention.md",
                         old="At 2 bits they take 6144.\n  The 16 generated",
                         new="At 2 bits they take\n  6144. The 16 generated"),
             ["tests/test_doc_lint.py", "-k", "list_items"],
             r"test_list_items_keep_their_lines\[en/amp/attention\.md\]"),
]
