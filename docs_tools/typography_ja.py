"""Japanese typography on the pages: no space that splits a sentence at emphasis or a link.

    python -m docs_tools.typography_ja docs/ja/page.md [...]   # remove the spaces the lint reports

``tests/test_doc_lint.py`` fails on :func:`japanese_typography_problems`.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from docs_tools.docs_model import fence_lines, prose_lines

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
    out = []
    inside = fence_lines(text)
    for i, line in enumerate(text.split("\n")):
        if i not in inside:
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
    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(fix_japanese_typography(path.read_text(encoding="utf-8")), encoding="utf-8")
