"""Japanese comments and docstrings for the example scripts, from one source.

Every example is one file, ``snippets/<topic>/<name>.py``, with English comments; both
languages run that code. Its Japanese comments and docstrings live next to it in
``snippets/<topic>/<name>.ja.toml``; the Japanese site shows (and offers for download) the
script with those texts in place of the English ones, and nothing else changed::

    # Japanese comments and docstrings of name.py (docs_tools/localize.py).

    [[text]]
    en = "Labels in English; FIGURE_LANG=ja draws them in Japanese."
    ja = "ラベルは英語。FIGURE_LANG=ja を付けると日本語で描きます。"

    [[text]]
    en = "x.shape == (2, 3)"
    keep = true          # code, a name or a number: shown as it is on both sites

What one ``[[text]]`` entry translates (a *unit*, :func:`units`):

* a block of full-line comments (consecutive lines, same column), its lines joined with
  ``\\n``, each without ``#`` and one following space. The Japanese text may have a
  different number of lines; each gets the block's indentation and ``# ``;
* a comment after code on the same line (one line in Japanese too);
* a module, class or function docstring (as :func:`inspect.cleandoc` gives it), kept in
  its quotes and indentation.

Pragmas stay as they are and need no entry: ``# noqa``, ``# type:``, ``# fmt:``,
``# pragma``, the snippet section markers ``# --8<--``, ``#!`` and coding lines. Text after a
pragma on the same line (``# noqa: F401  (removed; ...)``) is a unit of its own (kind
``pragma``): the Japanese text replaces it and the pragma stays.

:func:`problems` is what the tests check: every unit has its Japanese text (with Japanese
in it, unless ``keep``), no entry is left over from an older version of the script, and the
Japanese script has exactly the code tokens of the English one (only comments and
docstrings differ). ``python -m docs_tools.localize`` helps translators::

    python -m docs_tools.localize scaffold snippets/amp/x.py   # add entries for new units (ja = "")
    python -m docs_tools.localize check [FILE ...]             # list problems (all snippets by default)
    python -m docs_tools.localize render snippets/amp/x.py     # print the Japanese script

Used by the docs build (docs/hooks/localize.py) and the tests; standard library only.
"""

from __future__ import annotations

import ast
import inspect
import io
import re
import sys
import tokenize
import tomllib
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "LocalizeError", "Unit", "code_tokens", "has_japanese", "load", "localize", "problems",
    "sidecar_path", "token_difference", "units",
]

REPO = Path(__file__).resolve().parents[1]
SNIPPETS = REPO / "snippets"
SUFFIX = ".ja.toml"
HEADER = "# Japanese comments and docstrings of {name} (docs_tools/localize.py). The code is {name}'s.\n"
PRAGMA = re.compile(r"^#\s*(noqa\b|type:|fmt:|pragma\b|--8<--|-\*-)|^#!")
# A pragma followed by words for the reader: ``# noqa: F401  (why)``, ``# type: ignore[x] - why``.
PRAGMA_TEXT = re.compile(
    r"^#\s*(?:noqa(?::\s*[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)?|type:\s*ignore(?:\[[\w\-, ]*\])?"
    r"|fmt:\s*(?:off|on|skip)|pragma:\s*no\s+(?:cover|branch))\s+(?:[-\u2014:;]\s+)?(?P<text>\S.*?)\s*$"
)
JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60]")


class LocalizeError(ValueError):
    """A sidecar that cannot be read, or a Japanese text that cannot be put in place."""


@dataclass(frozen=True)
class Unit:
    """One translatable piece of a script: a comment block, a trailing comment or a docstring."""

    kind: str  # "block", "trailing", "pragma" (the text after a pragma) or "docstring"
    text: str  # the English text (see the module docstring)
    start: int  # first line, 1-based
    end: int  # last line, 1-based
    col: int  # column of the "#", of a pragma's text or of the docstring's first quote
    end_col: int = 0  # a docstring's column just after its closing quotes


def sidecar_path(script: Path) -> Path:
    return script.with_name(script.stem + SUFFIX)


def has_japanese(text: str) -> bool:
    return bool(JAPANESE.search(text))


def _comment_text(comment: str) -> str:
    text = comment[1:]
    return (text[1:] if text.startswith(" ") else text).rstrip()


def _docstring_nodes(tree: ast.AST) -> list[ast.Constant]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.append(body[0].value)
    return found


def units(source: str) -> list[Unit]:
    """The translatable pieces of ``source``, in order."""
    lines = source.splitlines()
    found: list[Unit] = []
    block: list[tokenize.TokenInfo] = []

    def flush():
        if block:
            found.append(Unit("block", "\n".join(_comment_text(t.string) for t in block),
                              block[0].start[0], block[-1].start[0], block[0].start[1]))
            block.clear()

    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.COMMENT:
            if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                flush()
            continue
        row, col = tok.start
        if PRAGMA.match(tok.string):
            flush()
            after = PRAGMA_TEXT.match(tok.string)
            if after:
                found.append(Unit("pragma", after.group("text"), row, row, col + after.start("text")))
            continue
        if lines[row - 1][:col].strip():  # code before it on the line
            flush()
            found.append(Unit("trailing", _comment_text(tok.string), row, row, col))
            continue
        if block and (row != block[-1].start[0] + 1 or col != block[-1].start[1]):
            flush()
        block.append(tok)
    flush()
    for node in _docstring_nodes(ast.parse(source)):
        found.append(Unit("docstring", inspect.cleandoc(node.value), node.lineno, node.end_lineno,
                          node.col_offset, node.end_col_offset))
    return sorted(found, key=lambda u: (u.start, u.col))


def load(sidecar: Path) -> dict[str, dict]:
    """English text -> its entry (``ja``, ``keep``) from a ``.ja.toml`` sidecar."""
    try:
        data = tomllib.loads(sidecar.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise LocalizeError(f"{sidecar}: not valid TOML: {error}") from error
    unknown = set(data) - {"text"}
    if unknown:
        raise LocalizeError(f"{sidecar}: unknown keys {sorted(unknown)}; only [[text]] entries belong here")
    table: dict[str, dict] = {}
    for i, entry in enumerate(data.get("text", []), 1):
        extra = set(entry) - {"en", "ja", "keep"}
        if "en" not in entry or extra:
            raise LocalizeError(f"{sidecar}: entry {i} needs 'en' and one of 'ja' or 'keep = true' (and nothing else: {sorted(extra)})")
        if entry["en"] in table:
            raise LocalizeError(f"{sidecar}: entry {i} repeats the English text {entry['en']!r}")
        table[entry["en"]] = entry
    return table


def _japanese(unit: Unit, table: dict[str, dict]) -> str | None:
    entry = table.get(unit.text)
    if entry is None:
        return None
    if entry.get("keep"):
        return unit.text
    return entry.get("ja") or None


def _docstring_replacement(node_src: str, ja: str, indent: str) -> str:
    m = re.match(r"(?is)^([rbuf]*)('''|\"\"\"|'|\")", node_src)
    prefix, quote = m.group(1), m.group(2)
    if len(quote) == 1:
        quote *= 3
    body_lines = ja.split("\n")
    if len(body_lines) == 1:
        return f"{prefix}{quote}{ja}{quote}"
    rest = "\n".join((indent + line) if line else "" for line in body_lines[1:])
    return f"{prefix}{quote}{body_lines[0]}\n{rest}\n{indent}{quote}"


def localize(source: str, table: dict[str, dict], *, partial: bool = False) -> str:
    """``source`` with every unit's Japanese text in place of the English.

    Raises :class:`LocalizeError` naming the untranslated units, unless ``partial`` (then they
    stay English).
    """
    lines = source.splitlines(keepends=True)
    missing = []
    edits: list[tuple[Unit, str]] = []
    for unit in units(source):
        ja = _japanese(unit, table)
        if ja is None:
            missing.append(unit)
            continue
        edits.append((unit, ja))
    if missing and not partial:
        raise LocalizeError("no Japanese text for: " + "; ".join(f"line {u.start} {u.text[:60]!r}" for u in missing))
    for unit, ja in sorted(edits, key=lambda e: (e[0].start, e[0].col), reverse=True):
        first = lines[unit.start - 1]
        if unit.kind == "block":
            indent = first[: unit.col]
            new = "".join(f"{indent}# {line}".rstrip() + "\n" if line else f"{indent}#\n" for line in ja.split("\n"))
            lines[unit.start - 1 : unit.end] = [new]
        elif unit.kind == "pragma":
            if "\n" in ja:
                raise LocalizeError(f"line {unit.start}: the text after a pragma must stay on one line: {ja!r}")
            ending = "\n" if first.endswith("\n") else ""
            lines[unit.start - 1] = first[: unit.col] + ja + ending
        elif unit.kind == "trailing":
            if "\n" in ja:
                raise LocalizeError(f"line {unit.start}: a comment after code must stay on one line: {ja!r}")
            ending = "\n" if first.endswith("\n") else ""
            lines[unit.start - 1] = first[: unit.col] + "# " + ja + ending
        else:
            last = lines[unit.end - 1]
            node_src = "".join(lines[unit.start - 1 : unit.end])
            node_src = node_src[unit.col : len(node_src) - len(last) + unit.end_col]
            new = first[: unit.col] + _docstring_replacement(node_src, ja, " " * unit.col) + last[unit.end_col :]
            lines[unit.start - 1 : unit.end] = [new]
    return "".join(lines)


def code_tokens(source: str) -> list[tuple[int, str]]:
    """The tokens that make the program: no comments, no blank lines, docstrings as one placeholder."""
    docstrings = {(n.lineno, n.col_offset) for n in _docstring_nodes(ast.parse(source))}
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL):
            continue
        if tok.type == tokenize.STRING and tok.start in docstrings:
            out.append((tok.type, "<docstring>"))
        elif tok.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE, tokenize.ENDMARKER):
            out.append((tok.type, ""))
        else:
            out.append((tok.type, tok.string))
    return out


def token_difference(a: str, b: str) -> str | None:
    """Where two programs' code tokens first differ, or None when they are the same program."""
    ta, tb = code_tokens(a), code_tokens(b)
    for i, (x, y) in enumerate(zip(ta, tb)):
        if x != y:
            return f"token {i}: {x[1]!r} vs {y[1]!r}"
    if len(ta) != len(tb):
        return f"{len(ta)} vs {len(tb)} tokens"
    return None


def problems(script: Path) -> list[str]:
    """What keeps ``script``'s Japanese version from being complete and the same program."""
    source = script.read_text(encoding="utf-8")
    found = units(source)
    sidecar = sidecar_path(script)
    rel = script.relative_to(REPO) if script.is_relative_to(REPO) else script
    if not found:
        return [f"{sidecar.name}: {rel} has no comment or docstring to translate; delete the sidecar"] if sidecar.exists() else []
    if not sidecar.exists():
        return [f"{rel}: {len(found)} comments/docstrings without Japanese text (no {sidecar.name}; "
                f"`python -m docs_tools.localize scaffold {rel}` starts one)"]
    try:
        table = load(sidecar)
    except LocalizeError as error:
        return [str(error)]
    out = []
    texts = {u.text for u in found}
    for unit in found:
        entry = table.get(unit.text)
        if entry is None or not (entry.get("keep") or entry.get("ja")):
            out.append(f"{rel}:{unit.start}: no Japanese text for the {unit.kind} {unit.text[:70]!r}")
        elif not entry.get("keep") and not has_japanese(entry["ja"]):
            out.append(f"{rel}:{unit.start}: the Japanese text has no Japanese in it: {entry['ja'][:70]!r} "
                       "(mark code or a name with keep = true)")
    for en in table:
        if en not in texts:
            out.append(f"{sidecar.relative_to(REPO) if sidecar.is_relative_to(REPO) else sidecar}: "
                       f"no such comment or docstring in {script.name} any more: {en[:70]!r}")
    if out:
        return out
    try:
        ja = localize(source, table)
    except LocalizeError as error:
        return [f"{rel}: {error}"]
    try:
        diff = token_difference(source, ja)
    except (SyntaxError, tokenize.TokenError) as error:
        return [f"{rel}: the Japanese version is not valid Python: {error}"]
    if diff:
        return [f"{rel}: the Japanese version is not the same program ({diff})"]
    if units(ja).__len__() != len(found):
        return [f"{rel}: the Japanese version has {len(units(ja))} comments/docstrings, the English {len(found)}"]
    return []


def _toml_string(text: str) -> str:
    if "\n" in text:
        if "'''" not in text:
            return "'''\n" + text + "'''"
        return '"""\n' + text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') + '"""'
    if "'" not in text:
        return "'" + text + "'"  # a literal string: no escapes to read
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def scaffold(script: Path) -> int:
    """Append an entry with an empty ``ja`` for every unit the sidecar lacks; return how many."""
    sidecar = sidecar_path(script)
    table = load(sidecar) if sidecar.exists() else {}
    new = [u for u in units(script.read_text(encoding="utf-8")) if u.text not in table]
    seen: set[str] = set()
    chunks = []
    for unit in new:
        if unit.text in seen:
            continue
        seen.add(unit.text)
        chunks.append(f"\n[[text]]\nen = {_toml_string(unit.text)}\nja = \"\"\n")
    if not chunks:
        return 0
    text = sidecar.read_text(encoding="utf-8") if sidecar.exists() else HEADER.format(name=script.name)
    sidecar.write_text(text + "".join(chunks), encoding="utf-8")
    return len(chunks)


def _main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"scaffold", "check", "render"}:
        print(__doc__)
        return 2
    command, files = argv[0], [Path(a).resolve() for a in argv[1:]]
    if command == "check" and not files:
        files = sorted(SNIPPETS.rglob("*.py"))
    status = 0
    for script in files:
        if command == "scaffold":
            print(f"{script.relative_to(REPO)}: {scaffold(script)} new entries")
        elif command == "check":
            for line in problems(script):
                print(line)
                status = 1
        else:
            sys.stdout.write(localize(script.read_text(encoding="utf-8"), load(sidecar_path(script))))
    return status


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
