"""Every public name of reference_impl.storage and reference_impl.amp is documented with Args/Returns/Examples.

The Examples themselves run through pytest's --doctest-modules (see pyproject.toml).
"""

from __future__ import annotations

import inspect

import pytest

import reference_impl.amp as amp
import reference_impl.storage as storage

PUBLIC = [(package, name) for package in (storage, amp) for name in package.__all__]


@pytest.mark.parametrize(("package", "name"), PUBLIC, ids=[f"{p.__name__}.{n}" for p, n in PUBLIC])
def test_public_api_is_documented(package, name):
    obj = getattr(package, name)
    doc = inspect.getdoc(obj) or ""
    assert doc, name
    if inspect.isfunction(obj):
        sections = ["Returns:", "Examples:"]
        if inspect.signature(obj).parameters:
            sections.append("Args:")
        for section in sections:
            assert section in doc, f"{name} lacks {section}"


SPHINX_ROLE = r":(mod|func|meth|class|attr|obj|data|exc):`"


def test_docstrings_use_no_sphinx_roles():
    """The API reference renders docstrings as Markdown (mkdocstrings): a Sphinx role such as
    :mod:`reference_impl` shows as the literal text ":mod:" on both sites. Write ``name``."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    found = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("reference_impl", "benchmarks")
        for path in sorted((root / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(SPHINX_ROLE, line)
    ]
    assert not found, "Sphinx roles render literally in the API reference:\n" + "\n".join(found)


def _docstring_python_blocks():
    """(where, code) of every ```python fence in a docstring of reference_impl and benchmarks: the
    API reference renders each as a code block with a copy button, so a reader pastes it alone."""
    import ast
    import re
    import textwrap
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    fence = re.compile(r"^([ \t]*)```python[^\n]*\n(.*?)^\1```", re.M | re.S)
    found = []
    for folder in ("reference_impl", "benchmarks"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    doc = ast.get_docstring(node, clean=True) or ""
                    for m in fence.finditer(doc):
                        name = getattr(node, "name", "module")
                        found.append((f"{path.relative_to(root)}:{name}", textwrap.dedent(m.group(2))))
    return found


DOCSTRING_BLOCKS = _docstring_python_blocks()


def test_the_reference_shows_a_python_block():
    """Issue 40 found the one such block (ReferenceGradScaler's usage) stopping with NameError."""
    assert any(where.endswith(":ReferenceGradScaler") for where, _ in DOCSTRING_BLOCKS), DOCSTRING_BLOCKS


@pytest.mark.parametrize(("where", "code"), DOCSTRING_BLOCKS, ids=[w for w, _ in DOCSTRING_BLOCKS])
def test_a_python_block_in_a_docstring_runs_when_pasted_alone(where, code, tmp_path):
    """Pasted alone into a fresh interpreter (an empty folder, warnings as errors), the block runs:
    it imports and defines what it uses (model, loss_fn, batches ... and the class itself)."""
    import os
    import subprocess
    import sys

    from docs_tools.snippets import snippet_env

    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=snippet_env(),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0 and not result.stderr.strip(), f"{where}:\n{result.stderr[-3000:]}"
    assert os.listdir(tmp_path) == [], f"{where} left files behind: {os.listdir(tmp_path)}"
