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
