"""Tools shared by the docs build (docs/hooks*.py) and the tests: the Markdown model of the pages,
snippet metadata (``snippets/**/*.test.toml``), the rule for printed numbers, the warning policy,
and the authoring tools (glossary, translations, Japanese reflow).

Not shipped in the wheel (``pyproject.toml`` packages only ``reference_impl`` and ``benchmarks``).
Depends only on the standard library, PyYAML and markdown-it-py, so building the docs needs no
test dependency.
"""
