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
