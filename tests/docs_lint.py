"""The rules that keep every piece of code on a page under test (used by test_doc_lint.py).

pytest-codeblocks silently skips ``py``, ``pycon``, titled fences and ``~~~``;
a ``text`` block could show output nobody checks; a snippet could be written
but never shown. Each rule returns a list of problems (empty when fine).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from tests.docs_model import REPO, Page, wrapped_prose_lines

# Fence info strings a page may use, and why each is safe.
ALLOWED_INFO = {
    "python": "run by test_doc_blocks.py (inline) or test_snippets.py (a --8<-- include)",
    "text": "output: an expected-output block (checked) or an include of a checked .out / generated file",
    "console": "a shell command for the reader to copy; never run by the tests",
    "toml": "configuration shown, not code",
    "yaml": "configuration shown, not code",
    "json": "data shown, not code",
    "dockerfile": "a Dockerfile; not built by the tests",
}
ALLOWED_MARKERS = re.compile(
    r"^(pytest\.mark\.cuda"
    r"|pytest\.mark\.skipif\(.*reason=.*\)"
    r"|pytest-codeblocks:(expected-output|expected-output-ignore-whitespace|cont|importorskip\(\w+\)))$"
)
# A "save as a file" example: ```python title="name.py"``` whose only line includes
# snippets/**/name.py. pytest-codeblocks skips titled fences, but test_snippets.py runs the file,
# and test_copy_paste.py saves the copied block as name.py and runs `python name.py`.
TITLED_PYTHON = re.compile(r'^python title="(?P<title>[\w.-]+\.py)"$')
GENERATED_OUTPUT_DIRS = ("snippets/", "benchmarks/results/")
THIRD_PARTY_ASSET = re.compile(r"(!\[[^\]]*\]\(https?://|<(img|script|iframe|link)[^>]+(src|href)=\"https?://)")


def fence_problems(page: Page, repo=REPO) -> list[str]:
    problems = []
    lines = page.text.splitlines()
    for f in page.fences:
        where = f"docs/{page.lang}/{page.rel}:{f.lineno}"
        if f.fence.startswith("~"):
            problems.append(f"{where}: '~~~' fences are skipped by pytest-codeblocks; use ```")
            continue
        info = f.info
        titled = TITLED_PYTHON.match(f.info)
        if titled:
            include = f.include
            if include is None or not include.startswith("snippets/") or PurePosixPath(include).name != titled["title"]:
                problems.append(
                    f"{where}: a titled python fence (a 'save as {titled['title']}' example) must hold exactly one "
                    f'--8<-- "snippets/.../{titled["title"]}" include: test_snippets.py runs that file, '
                    "while pytest-codeblocks would skip inline code under a title"
                )
                continue
            info = "python"
        if info not in ALLOWED_INFO:
            problems.append(
                f"{where}: fence info {f.info!r} is not one of {sorted(ALLOWED_INFO)} "
                "(py/pycon/titled fences are silently skipped; use ```python, and console for shell)"
            )
            continue
        for marker in f.markers:
            if not ALLOWED_MARKERS.match(marker):
                problems.append(f"{where}: marker <!--{marker}--> is not allowed (no plain skip/xfail: blocks must run)")
        include = f.include
        if info == "python" and include is not None:
            if not (include.startswith("snippets/") and include.endswith(".py")):
                problems.append(f"{where}: a python include must be a whole snippets/*.py file, got {include!r}")
            elif not (repo / include).is_file():
                problems.append(f"{where}: included file {include} does not exist")
        if info == "python" and include is None and "--8<--" in f.body:
            problems.append(f"{where}: partial includes inside code are not run as shown; include a whole file")
        if f.info == "text":
            if include is not None:
                if not include.startswith(GENERATED_OUTPUT_DIRS) or not (repo / include).is_file():
                    problems.append(f"{where}: text include {include!r} must be a checked output file that exists")
                continue
            # An expected-output marker sits between the code block and this fence.
            before = lines[: f.lineno - 1]
            last = next((ln.strip() for ln in reversed(before) if ln.strip()), "")
            if not last.startswith("<!--pytest-codeblocks:expected-output"):
                problems.append(
                    f"{where}: a text block must be checked output "
                    "(<!--pytest-codeblocks:expected-output--> before it, or an include of a .out file)"
                )
    return problems


REQUIRES_MODULE = re.compile(r"^#\s*requires-module:\s*(?P<module>\S+)\s*$", re.M)


def optional_package_problems(page: Page, repo=REPO) -> list[str]:
    """A block that needs an optional package (``# requires-module: x``) has an admonition above it
    (in the same section) that names the package, so a reader knows before pasting it."""
    problems = []
    lines = page.text.splitlines()
    for f in page.fences:
        if not (f.include and f.include.endswith(".py") and (repo / f.include).is_file()):
            continue
        modules = REQUIRES_MODULE.findall((repo / f.include).read_text(encoding="utf-8")[:2000])
        if not modules:
            continue
        start = f.lineno - 1
        while start > 0 and not lines[start - 1].lstrip().startswith("#"):
            start -= 1
        notes, inside = [], False
        for line in lines[start : f.lineno - 1]:
            if line.lstrip().startswith(("!!!", "???")):
                inside = True
                notes.append(line)
            elif inside and (not line.strip() or line.startswith((" ", "\t"))):
                notes.append(line)
            else:
                inside = False
        text = "\n".join(notes).lower()
        missing = [m for m in modules if m.lower() not in text]
        if missing:
            problems.append(
                f"docs/{page.lang}/{page.rel}:{f.lineno}: {f.include} needs {', '.join(missing)}; "
                "name the package in an admonition above the block (!!! note \"Needs ...\")"
            )
    return problems


def heading_problems(page: Page) -> list[str]:
    return [f"docs/{page.lang}/{page.rel}: '{text}'" for _, hid, text in page.headings if hid is None]


def third_party_assets(page: Page) -> list[str]:
    return [f"docs/{page.lang}/{page.rel}: {m.group(0)}" for m in THIRD_PARTY_ASSET.finditer(page.text)]


def japanese_wrap_problems(page: Page) -> list[str]:
    lines = page.text.splitlines()
    return [f"docs/{page.lang}/{page.rel} line {i + 1}: {lines[i][:60]}" for i in wrapped_prose_lines(page.text)]
