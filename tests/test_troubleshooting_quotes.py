"""The messages the troubleshooting page quotes in its prose are real, in both languages.

``tests/test_troubleshooting.py`` checks the messages listed under "A warning or an error message"
(``#messages``) against the site's checked outputs, and the two out-of-memory messages against a real
run. The symptom sections above that list quote messages in their prose too. Here every such quote
(an inline code span that is not code: it does not read as Python call arguments and is no command)
must have a source:

* a checked output prints it (``snippets/**/*.out``, ``recorded/**/*.out``), as for the list;
* or it is one of the out-of-memory messages that ``tests/test_troubleshooting.py`` checks by a run;
* or it is a message of an installed library that no run here can print, read from that library's
  installed source: the LLM-int8 entry's follow-up message (``#llm-int8``), which transformers raises
  when ``accelerate`` is installed and bitsandbytes is not (``quantizers/quantizer_bnb_8bit.py``,
  the version from ``BITSANDBYTES_MIN_VERSION``). The page names the transformers version and the
  file; both must be the installed ones.

Nothing is imported from transformers (importing it imports torchao too, seconds): its source is read
and the f-string evaluated with the constants of ``utils/import_utils.py``.
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import re
from pathlib import Path

import pytest

from tests.test_troubleshooting import (
    CPU_OOM,
    CUDA_OOM,
    LANGS,
    TYPED,
    checked_outputs,
    package_dir,
    page_text,
)

FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
# An inline code span, single or double backticks (a double one may hold single backticks).
SPAN = re.compile(r"(?<!`)(`+)(?!`) ?(.+?) ?(?<!`)\1(?!`)")
COMMAND = re.compile(r"^(pip|python|bash|git|export|uv|conda)\b")

# Messages of installed libraries that no run here prints (the package they ask for is not installed
# on purpose), quoted in the symptom sections: (the module of the library, relative to its package
# folder; a fragment of the message's f-string that picks it).
LIBRARY_QUOTES = {
    "llm-int8": ("transformers", "quantizers/quantizer_bnb_8bit.py", "requires bitsandbytes"),
}


def _constants(path: Path) -> dict[str, str]:
    """The module-level ``NAME = "text"`` assignments of a source file."""
    found = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node.value.value
    return found


def library_message(package: str, module: str, fragment: str) -> str:
    """The text of the message ``module`` raises whose f-string contains ``fragment``, its names
    filled in from the package's ``utils/import_utils.py`` constants (where transformers keeps the
    minimum versions it asks for)."""
    root = package_dir(package)
    source = root / module
    assert source.is_file(), f"{package} has no {module} any more: find where the quoted message went"
    names = _constants(root / "utils" / "import_utils.py")
    messages = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.JoinedStr):
            parts = []
            for value in node.values:
                if isinstance(value, ast.Constant):
                    parts.append(value.value)
                elif isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name) and value.value.id in names:
                    parts.append(names[value.value.id])
                else:
                    parts = None
                    break
            if parts is not None and fragment in "".join(parts):
                messages.append("".join(parts))
    assert len(messages) == 1, f"{package}/{module}: {len(messages)} messages contain {fragment!r}: {messages}"
    return messages[0]


def section(lang: str, anchor: str) -> str:
    text = page_text(lang)
    start = text.index(f"{{#{anchor}}}")
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else None]


def is_code(span: str) -> bool:
    """A span of code, not a quoted message: one token, a command, or what reads as Python call
    arguments (``torch.autocast("mps", dtype=torch.float16)``, ``rtol=1e-2, atol=1e-2``)."""
    if " " not in span.strip() or COMMAND.match(span):
        return True
    try:
        ast.parse(f"f({span})", mode="eval")
    except SyntaxError:
        return False
    return True


def prose_quotes(lang: str) -> list[str]:
    """The messages quoted in the symptom sections (before the list of messages), fences left out; a
    span that wraps across lines is read as the page shows it, on one line."""
    text = page_text(lang)
    head = FENCE.sub("", text[: text.index("{#messages}")])
    head = " ".join(head.split())
    return [span for _, span in SPAN.findall(head) if not is_code(span)]


def _library_texts() -> dict[str, str]:
    return {anchor: library_message(*where) for anchor, where in LIBRARY_QUOTES.items()}


def test_the_classifier_tells_quotes_from_code():
    assert is_code("pip install transformers") and is_code("accelerate") and is_code("rtol=1e-2, atol=1e-2")
    assert is_code('torch.autocast("mps", dtype=torch.float16)')
    assert not is_code(CPU_OOM) and not is_code("TorchExportError: Failed to export the model with torch.export.")
    assert not is_code("Using `bitsandbytes` 8-bit quantization requires bitsandbytes: `pip install -U bitsandbytes>=0.46.1`")


def test_the_library_message_is_read_from_the_installed_source():
    """transformers' follow-up message of the LLM-int8 check, as the installed version raises it."""
    text = library_message(*LIBRARY_QUOTES["llm-int8"])
    version = _constants(package_dir("transformers") / "utils" / "import_utils.py")["BITSANDBYTES_MIN_VERSION"]
    assert text == f"Using `bitsandbytes` 8-bit quantization requires bitsandbytes: `pip install -U bitsandbytes>={version}`"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("anchor", sorted(LIBRARY_QUOTES))
def test_a_library_message_is_quoted_as_the_installed_library_raises_it(lang, anchor):
    """The section quotes the message word for word (in a double-backtick span: it holds backticks),
    names the installed version (major.minor) and the file it comes from."""
    package, module, _ = LIBRARY_QUOTES[anchor]
    text = " ".join(section(lang, anchor).split())
    message = _library_texts()[anchor]
    assert f"`` {message} ``" in text, (
        f"docs/{lang}/troubleshooting.md#{anchor} does not quote what the installed {package} raises: {message!r}")
    major_minor = ".".join(importlib.metadata.version(package).split(".")[:2])
    assert re.search(rf"{package} {re.escape(major_minor)}(?![\d.]*\d)", text), (
        f"docs/{lang}/troubleshooting.md#{anchor} does not name the installed {package} {major_minor} as its source")
    assert f"`{module}`" in text, f"docs/{lang}/troubleshooting.md#{anchor} does not name the file {module}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_quoted_in_the_symptom_sections_has_a_source(lang):
    """Each message quoted in the prose above the list is printed by a checked output, or checked by a
    run in tests/test_troubleshooting.py (the out-of-memory ones), or is a library's message read
    from its installed source here."""
    outputs = checked_outputs()
    library = set(_library_texts().values())
    unsourced = []
    for quote in prose_quotes(lang):
        typed = TYPED.match(quote)
        kind, text = typed.groups() if typed else (None, quote)
        printed = any(text in out and (kind is None or kind in out) for out in outputs.values())
        if not (printed or quote in (CPU_OOM, CUDA_OOM) or quote in library):
            unsourced.append(quote)
    assert not unsourced, (
        f"docs/{lang}/troubleshooting.md quotes messages that no checked output prints and no test reads from "
        f"their source: {unsourced} (copy them from a real run, or add their source to LIBRARY_QUOTES)")
    assert len(prose_quotes(lang)) >= 5, prose_quotes(lang)
