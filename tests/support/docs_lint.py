"""The rules that keep every piece of code on a page under test (used by test_doc_lint.py).

The copy-paste test (tests/test_copy_paste.py) runs only ```` ```python ```` fences, so a
``py``, ``pycon`` or ``~~~`` block would be skipped silently; a ``text`` block could show output
nobody checks; a snippet could be written but never shown. Each rule returns a list of problems (empty when fine).
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from docs_tools.docs_model import REPO, Page, prose_lines, wrapped_prose_lines
from docs_tools.snippets import CUDA_CODE, snippet_meta

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
    r"|pytest\.mark\.skipif\(.*\)"  # only a condition of SKIPIF_CONDITIONS, with a reason (skipif_problem)
    r"|pytest-codeblocks:expected-output)$"  # an optional package is named in the snippet's sidecar (requires-module)
)
# The only conditions a page may skip a block under, and why each is safe. A block is never
# switched off for good (``skipif(True, ...)``): each condition is false on some machine that runs the suite.
SKIPIF_CONDITIONS = {
    '__import__("torch").accelerator.is_available()': (
        "the block shows what a machine WITHOUT an accelerator prints (CPU fallbacks); on a GPU machine the "
        "page's CUDA block next to it runs instead, and CI's CPU machines run this one"
    ),
}
# A "save as a file" example: ```python title="name.py"``` whose only line includes
# snippets/**/name.py: test_snippets.py runs the file, and test_copy_paste.py saves the copied
# block as name.py and runs `python name.py`.
TITLED_PYTHON = re.compile(r'^python title="(?P<title>[\w.-]+\.py)"$')
# Key lines of a long listing, marked by pieces of their code (docs/hooks/key_lines.py turns them
# into hl_lines for each language's version of the code); the fence is run like any ```python.
HIGHLIGHTED_PYTHON = re.compile(r'^python highlight="(?P<pattern>[^"\\]*)"$')
OUTPUT_FILE = re.compile(r"^(?P<stem>snippets/.+?)\.out$")
THIRD_PARTY_ASSET = re.compile(r"(!\[[^\]]*\]\(https?://|<(img|script|iframe|link)[^>]+(src|href)=\"https?://)")


def fence_problems(page: Page, repo=REPO) -> list[str]:
    problems = []
    lines = page.text.splitlines()
    for index, f in enumerate(page.fences):
        where = f"docs/{page.lang}/{page.rel}:{f.lineno}"
        if f.fence.startswith("~"):
            problems.append(f"{where}: '~~~' fences are not run by the copy-paste test; use ```")
            continue
        info = f.info
        if HIGHLIGHTED_PYTHON.match(info):
            info = "python"
        titled = TITLED_PYTHON.match(f.info)
        if titled:
            include = f.include
            if include is None or not include.startswith("snippets/") or PurePosixPath(include).name != titled["title"]:
                problems.append(
                    f"{where}: a titled python fence (a 'save as {titled['title']}' example) must hold exactly one "
                    f'--8<-- "snippets/.../{titled["title"]}" include: test_snippets.py runs that file, '
                    "and the copy-paste test saves the copied block under that name"
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
            elif marker.startswith("pytest.mark.skipif"):
                problem = skipif_problem(marker)
                if problem:
                    problems.append(f"{where}: {problem}")
            elif marker == "pytest.mark.cuda" and not CUDA_CODE.search(_code_of(f, repo)):
                problems.append(
                    f"{where}: <!--pytest.mark.cuda--> on code that never uses CUDA "
                    '("cuda", .cuda(, torch.cuda, device="cuda"): the marker would switch a CPU block off for good'
                )
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
                problem = output_include_problem(page, index, repo)
                if problem:
                    problems.append(f"{where}: {problem}")
                continue
            # An expected-output marker sits between the code block and this fence.
            before = lines[: f.lineno - 1]
            last = next((ln.strip() for ln in reversed(before) if ln.strip()), "")
            if last != "<!--pytest-codeblocks:expected-output-->":
                problems.append(
                    f"{where}: a text block must be checked output "
                    "(<!--pytest-codeblocks:expected-output--> before it, or an include of a .out file)"
                )
    return problems


def _code_of(f, repo=REPO) -> str:
    """The code a python fence shows: its body, or the whole included snippet."""
    if f.include and f.include.endswith(".py") and (repo / f.include).is_file():
        return (repo / f.include).read_text(encoding="utf-8")
    return f.body


def skipif_problem(marker: str) -> str | None:
    """None for ``pytest.mark.skipif(<a SKIPIF_CONDITIONS condition>, reason="...")``, else what is wrong."""
    allowed = {ast.unparse(ast.parse(c, mode="eval").body): c for c in SKIPIF_CONDITIONS}
    text = marker.removeprefix("pytest.mark.skipif(").removesuffix(")")
    try:
        parsed = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError:
        return f"marker <!--{marker}--> is not a valid skipif call"
    reason = next((k.value for k in parsed.keywords if k.arg == "reason"), None)
    if len(parsed.args) != 1 or ast.unparse(parsed.args[0]) not in allowed:
        return (
            f"skipif condition in <!--{marker}--> is not one of the named conditions "
            f"(SKIPIF_CONDITIONS in tests/support/docs_lint.py: {sorted(SKIPIF_CONDITIONS)}); "
            "a block may not be switched off for good"
        )
    if not (isinstance(reason, ast.Constant) and isinstance(reason.value, str) and reason.value.strip()):
        return f"<!--{marker}--> needs reason=\"...\" (what the block shows and where it runs instead)"
    return None


def output_include_problem(page: Page, index: int, repo=REPO) -> str | None:
    """A ``text`` fence that includes a file shows the checked output of the code right above it.

    Accepted: ``snippets/x/name.out`` directly after the python fence that includes
    ``snippets/x/name.py`` (nothing but blank lines between). Anything else (another snippet's
    output, a data file, a benchmark table) is output nobody compared with that code.
    """
    f = page.fences[index]
    include = f.include
    m = OUTPUT_FILE.match(include)
    if not m:
        return (
            f"a text block may include only a snippet's checked output (snippets/.../name.out), not {include!r}"
            + ("; benchmark tables are included as Markdown, outside a fence" if include.startswith("benchmarks/") else "")
        )
    if not (repo / include).is_file():
        return f"text include {include!r} does not exist"
    prev = page.fences[index - 1] if index else None
    lines = page.text.splitlines()
    between = [ln for ln in lines[prev.end_lineno : f.lineno - 1] if ln.strip()] if prev else ["(start)"]
    stem = m.group("stem")
    own_code = prev is not None and prev.include == stem + ".py" and prev.info.split()[0] == "python"
    if between or not own_code:
        return (
            f"text include {include} must come directly after the python block that includes {stem}.py "
            "(its checked output is compared only there)"
        )
    return None




def optional_package_problems(page: Page, repo=REPO) -> list[str]:
    """A block that needs an optional package (``# requires-module: x``) has an admonition above it
    (in the same section) that names the package, so a reader knows before pasting it."""
    problems = []
    lines = page.text.splitlines()
    for f in page.fences:
        if not (f.include and f.include.endswith(".py") and (repo / f.include).is_file()):
            continue
        modules = snippet_meta(repo / f.include).requires_module
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


_LIST_ITEM = re.compile(r"^ {0,3}(?:[-+*]|\d+[.)]) +\S")
_SHALLOW = re.compile(r"^ {1,3}(?=\S)")


def list_indent_problems(page: Page) -> list[str]:
    """Lines that Python-Markdown (the site's renderer) takes out of the list item they were written in.

    * a wrapped line of an item that starts with a list marker (``  6144. The tokens...``) starts a
      new item, and the marker's number disappears from the sentence;
    * a block indented by 1-3 spaces after a blank line under an item (a message quoted in a
      bullet) is not part of the item: Python-Markdown needs 4 spaces, so the list ends there
      and its explanation shows as a loose paragraph.
    Figures (``[![``, ``<figcaption>``) and tables keep their own indentation.
    """
    from docs_tools.docs_model import fence_lines

    lines = page.text.splitlines()
    inside = fence_lines(page.text)
    problems, in_item = [], False
    for i, line in enumerate(lines):
        if i in inside:
            continue
        if not line.strip():
            continue
        previous = lines[i - 1] if i else ""
        shallow = _SHALLOW.match(line) and not line.lstrip().startswith(("[![", "<figcaption", "|"))
        if in_item and shallow and previous.strip() and _LIST_ITEM.match(line):
            problems.append(f"docs/{page.lang}/{page.rel} line {i + 1}: a wrapped line starts with a list marker "
                            f"and becomes a new item: {line.strip()[:50]!r}")
            continue
        if _LIST_ITEM.match(line):
            in_item = True
            continue
        if in_item and shallow and not previous.strip():
            problems.append(f"docs/{page.lang}/{page.rel} line {i + 1}: indented by less than 4 spaces after a "
                            f"blank line, so it leaves the list item above: {line.strip()[:50]!r}")
        if not line.startswith(" "):
            in_item = False
    return problems


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
    return [
        f"{name}:{ln}: {m.group(0)!r} (say 'a common mistake' / 'older tutorials and blog posts' / よくある間違い)"
        for ln, line in prose_lines(text)
        for m in JARGON.finditer(line)
    ]


# --- What a reader installs -------------------------------------------------------
# Readers have the site's wheel, not a clone (guide/install.md#reference-impl), and a torch pinned
# without PyTorch's index URL is, on Linux, the CUDA build from PyPI (several gigabytes) that the
# install page warns against. Issue 40: reference/index.md said `pip install -e .` after a plain
# `pip install torch==2.13.0`.
EDITABLE_INSTALL = re.compile(r"pip install (?:-e|--editable)\b")
PINNED_TORCH = re.compile(r"pip install torch==\S+")


def install_command_problems(name: str, text: str) -> list[str]:
    problems = []
    for n, line in enumerate(text.splitlines(), 1):
        if EDITABLE_INSTALL.search(line):
            problems.append(f"{name}:{n}: an editable install of a repository the reader does not have; "
                            "point at the site's wheel (guide/install.md#reference-impl)")
        if PINNED_TORCH.search(line) and "--index-url" not in line:
            problems.append(f"{name}:{n}: `pip install torch==...` without --index-url installs the CUDA build "
                            "on Linux; give the CPU index URL as guide/install.md#pip does")
    return problems


# --- Quoted section titles ----------------------------------------------------
# A link whose text is quoted as a title (「[title](page.md#id)」の節, "[Title](page.md#id)") promises
# the reader a heading of that name: the text must be the heading the link lands on (the page's
# title when the link has no #id), in the page's own language. Issue 40: docs/ja/index.md quoted
# 「1.23 は実際に何になるか」, a title no page has (the heading is 「1.23 が実際に格納される値」).
QUOTED_LINK = {
    "ja": re.compile(r"「\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)」"),
    "en": re.compile(r"[\"“]\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)[\"”]"),
}
_INLINE_MARKUP = re.compile(r"\*\*|`|\\(?=[_*])")


def _plain_title(text: str) -> str:
    """A heading or link text as the reader sees it: no {#id}, no ** or backticks, spaces collapsed."""
    from docs_tools.docs_model import HEADING_ID

    return " ".join(_INLINE_MARKUP.sub("", HEADING_ID.sub("", text)).split())


def _headings_of(lang: str, rel: str) -> list[tuple[int, str | None, str]] | None:
    from docs_tools.docs_model import DOCS, notebook_markdown, parse_markdown

    path = DOCS / lang / rel
    if not path.is_file():
        return None
    text = notebook_markdown(path) if rel.endswith(".ipynb") else path.read_text(encoding="utf-8")
    return parse_markdown(text, lang, rel).headings


def quoted_heading_problems(name: str, text: str, lang: str) -> list[str]:
    """Every quoted link title (QUOTED_LINK) of a page, ``name`` = ``docs/<lang>/<rel>``, that is not
    the heading it links to."""
    import posixpath

    from docs_tools.docs_model import fence_lines

    here = name.removeprefix(f"docs/{lang}/")
    inside = fence_lines(text)
    problems = []
    for n, line in enumerate(text.splitlines()):
        if n in inside:
            continue
        for m in QUOTED_LINK[lang].finditer(line):
            target = m.group("target")
            if re.match(r"[a-z]+:", target):
                continue  # another site's page, quoted by its own title
            path, _, anchor = target.partition("#")
            rel = posixpath.normpath(posixpath.join(posixpath.dirname(here), path)) if path else here
            headings = _headings_of(lang, rel)
            if headings is None:
                problems.append(f"{name}:{n + 1}: {m.group(0)} links to docs/{lang}/{rel}, which does not exist")
                continue
            found = [h for h in headings if (h[1] == anchor if anchor else h[0] == 1)]
            title = _plain_title(found[0][2]) if found else None
            quoted = _plain_title(m.group("text"))
            if title is None or (quoted.casefold() != title.casefold() if lang == "en" else quoted != title):
                problems.append(f"{name}:{n + 1}: quotes {quoted!r}, but the heading it links to "
                                f"(docs/{lang}/{rel}{'#' + anchor if anchor else ''}) is {title!r}")
    return problems


# --- Japanese typography: docs_tools/typography_ja.py (its command fixes a page) ---
from docs_tools.typography_ja import (  # noqa: E402,F401
    fix_japanese_typography,
    japanese_typography_problems,
)


if __name__ == "__main__":
    import sys
    from pathlib import Path

    # Kept for old habits: python -m docs_tools.typography_ja docs/ja/page.md ... does the same.
    if sys.argv[1:2] == ["--fix-ja"]:
        for name in sys.argv[2:]:
            p = Path(name)
            p.write_text(fix_japanese_typography(p.read_text(encoding="utf-8")), encoding="utf-8")
