"""The contributor docs' commands run: README.md's and ARCHITECTURE.md's blocks go through pytest-codeblocks.

pyproject.toml lists both files in ``testpaths`` and turns on ``--codeblocks``, so a whole run
(``bash .ci/test``, ``pytest``) collects each ``bash``, ``sh`` or ``python`` block as a test
(``README.md::line N``) and runs it from the repository root. A block that must not run in a test
(it sets the machine up, or writes a tracked file) carries ``<!--pytest.mark.skip(reason="...")-->``
above it. These checks keep it so: a ``console`` block there would be skipped silently, and a skip
without a reason hides why.
"""

from __future__ import annotations

import re
import tomllib

import pytest
from pytest_codeblocks import extract_from_file

from docs_tools.docs_model import REPO, code_fences

DOCS = ("README.md", "ARCHITECTURE.md")
RUN = {"bash", "sh", "python"}  # what pytest-codeblocks runs
SHOWN_ONLY = {"text", "toml", "yaml", "json"}  # data and output shown, not commands


def test_the_suite_runs_the_contributor_docs_blocks():
    options = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert "--codeblocks" in options["addopts"].split()
    assert set(DOCS) <= set(options["testpaths"])


@pytest.mark.parametrize("name", DOCS)
def test_every_command_block_is_run_or_says_why_not(name):
    path = REPO / name
    fences = code_fences(path.read_text(encoding="utf-8"))
    found = [f"{name}:{f.start + 1}: a ```{f.info or '(no language)'} block is not run by pytest-codeblocks; "
             "write ```bash or ```python (with a skip marker and its reason if it must not run in a test)"
             for f in fences if (f.info.split() or [""])[0] not in RUN | SHOWN_ONLY]
    blocks = extract_from_file(path)
    for block in blocks:
        for mark in block.marks:
            if re.match(r"pytest\.mark\.skip(if)?\(", mark) and not re.search(r"reason\s*=\s*['\"]\S", mark):
                found.append(f"{name}:{block.lineno}: {mark} says no reason")
    assert len([b for b in blocks if b.syntax in RUN]) == len([f for f in fences if f.info.split()[:1] and f.info.split()[0] in RUN])
    assert not found, "\n".join(found)
