"""The rules that keep every piece of code on a page under test (used by test_doc_lint.py).

pytest-codeblocks silently skips ``py``, ``pycon``, titled fences and ``~~~``;
a ``text`` block could show output nobody checks; a snippet could be written
but never shown. Each rule returns a list of problems (empty when fine).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from tests.support.docs_model import REPO, Page, wrapped_prose_lines

# Fence info strings a page may use, and why each is safe.
ALLOWED_INFO = {
    "python": "run by test_copy_paste.py, pasted in page order (inline or a --8<-- snippet include)",
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


# --- Wording ----------------------------------------------------------------
# The site stands on its own: readers never saw the article this project once
# answered, so pages speak of "a common mistake (in older tutorials and blog
# posts)", never of "the seed"/"the source article"/"元記事". "seed" as in random
# seed is fine ("a fixed seed", "seeded", `manual_seed`).
JARGON = re.compile(
    r"seed[ -]articles?|seed's|seed code|\bthe seed\b|\(the \"seed\"\)|source article|original article"
    r"|元記事|元の記事|(?<!乱数)シードの(?:コード|記事|誤り|ループ|表)",
    re.I,
)


def jargon_problems(name: str, text: str) -> list[str]:
    from tests.support.docs_model import prose_lines

    return [
        f"{name}:{ln}: {m.group(0)!r} (say 'a common mistake' / 'older tutorials and blog posts' / よくある間違い)"
        for ln, line in prose_lines(text)
        for m in JARGON.finditer(line)
    ]


# --- Japanese typography ----------------------------------------------------
# In Japanese there are no spaces between words. Python-Markdown renders
# 「は**太字**の」 and 「は*斜体*の」 as emphasis, so a space written around the
# markers only shows up as a visible gap inside the sentence (「は 太字 の」). The
# same holds for a space after a link whose text ends in Japanese
# (「[後述](#x) のとおり」 renders 「後述 のとおり」), and before one (「詳しくは [テンソル](x)」). A space between Latin text
# (code, names like **TorchScript**) and Japanese is the usual style and stays.
_CJK = r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]"
EMPHASIS = re.compile(r"(?<![*\\])(\*\*|\*)(?=[^\s*])(.+?)(?<=[^\s*\\])\1(?!\*)")
LINK_THEN_SPACE = re.compile(r"\[([^\]]*" + _CJK + r")\]\(\) (?=" + _CJK + ")")
SPACE_THEN_LINK = re.compile(r"(?<=" + _CJK + r") \[(" + _CJK + r"[^\]]*)\]\(\)")


def _split_emphasis(line: str):
    """(start, end, side) for every space that splits a Japanese word at an emphasis marker."""
    for m in EMPHASIS.finditer(line):
        inner = m.group(2)
        if re.search(_CJK + " $", line[: m.start()]) and re.match(_CJK, inner):
            yield m.start() - 1, "before", m.group(0)
        if re.match(" " + _CJK, line[m.end():]) and re.search(_CJK + "$", inner):
            yield m.end(), "after", m.group(0)


def japanese_typography_problems(name: str, text: str) -> list[str]:
    from tests.support.docs_model import prose_lines

    problems = []
    for ln, line in prose_lines(text):
        for _, side, span in _split_emphasis(line):
            problems.append(f"{name}:{ln}: space {side} {span!r} splits the Japanese text (write は**語**の)")
        for m in LINK_THEN_SPACE.finditer(line):
            problems.append(f"{name}:{ln}: space after the link [{m.group(1)}] (write [{m.group(1)}](...)の)")
        for m in SPACE_THEN_LINK.finditer(line):
            problems.append(f"{name}:{ln}: space before the link [{m.group(1)}] (write は[{m.group(1)}](...))")
    return problems


def fix_japanese_typography(text: str) -> str:
    """Remove the spaces japanese_typography_problems reports (outside code fences and code spans)."""
    from tests.support.docs_model import FENCE_OPEN

    out, fence = [], None
    for line in text.split("\n"):
        m = FENCE_OPEN.match(line)
        if fence is None and m:
            fence = m.group("fence")
        elif fence is not None:
            s = line.strip()
            if s.startswith(fence[0] * len(fence)) and s.strip(fence[0]) == "":
                fence = None
        elif "`" not in line or True:
            # Work on the line with code spans masked, so nothing inside `...` moves.
            codes = []
            masked = re.sub(r"(`+)(?:(?!\1).)+?\1", lambda c: codes.append(c.group(0)) or f"\0{len(codes) - 1}\0", line)
            cuts = sorted({pos for pos, _, _ in _split_emphasis(masked)}, reverse=True)
            for pos in cuts:
                masked = masked[:pos] + masked[pos + 1:]
            masked = re.sub(
                r"(\[[^\]]*" + _CJK + r"\]\((?:[^()\s]|\([^()]*\))*\)) (?=" + _CJK + ")", r"\1", masked
            )
            masked = re.sub(r"(?<=" + _CJK + r") (?=\[" + _CJK + r"[^\]]*\]\()", "", masked)
            line = re.sub(r"\0(\d+)\0", lambda c: codes[int(c.group(1))], masked)
        out.append(line)
    return "\n".join(out)


if __name__ == "__main__":
    import sys
    from pathlib import Path

    # python -m tests.support.docs_lint --fix-ja docs/ja/page.md ...: remove the spaces the typography lint reports.
    if sys.argv[1:2] == ["--fix-ja"]:
        for name in sys.argv[2:]:
            p = Path(name)
            p.write_text(fix_japanese_typography(p.read_text(encoding="utf-8")), encoding="utf-8")
