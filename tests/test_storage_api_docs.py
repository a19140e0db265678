"""Every public name of reference_impl.storage is documented with Args/Returns/Examples.

The Examples themselves run through pytest's --doctest-modules (see pyproject.toml).
"""

from __future__ import annotations

import inspect

import pytest

import reference_impl.storage as storage

@pytest.mark.parametrize("name", storage.__all__)
def test_public_api_is_documented(name):
    obj = getattr(storage, name)
    doc = inspect.getdoc(obj) or ""
    assert doc, name
    if inspect.isfunction(obj):
        sections = ["Returns:", "Examples:"]
        if inspect.signature(obj).parameters:
            sections.append("Args:")
        for section in sections:
            assert section in doc, f"{name} lacks {section}"
