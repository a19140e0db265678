"""Moved to :mod:`docs_tools.snippets` (the docs build uses it too); kept so that old imports work.

``snippet_headers`` is the old interface (header comments, now sidecars ``name.test.toml``):
new code calls :func:`docs_tools.snippets.snippet_meta` instead.
"""

from __future__ import annotations

from pathlib import Path

from docs_tools.snippets import *  # noqa: F401,F403
from docs_tools.snippets import REPO, expected_output_file, machine_class, snippet_env, snippet_meta  # noqa: F401


def snippet_headers(path: Path) -> dict[str, list[str]]:
    """Deprecated: the sidecar as the old ``# key: value`` headers (no tolerance; use ``snippet_meta``)."""
    meta = snippet_meta(path)
    headers = {
        "requires": list(meta.requires),
        "requires-module": list(meta.requires_module),
        "timeout": [str(meta.timeout)] if meta.timeout != 300 else [],
        "allow-stderr": [a.pattern for a in meta.allow_stderr],
        "figure": list(meta.figure),
    }
    return {k: v for k, v in headers.items() if v}
