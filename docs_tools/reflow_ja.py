"""Join hard-wrapped Japanese paragraph lines (see docs_model.wrapped_prose_lines).

Usage: python -m docs_tools.reflow_ja docs/ja/some/page.md [...]
"""

from __future__ import annotations

import sys
from pathlib import Path

from docs_tools.docs_model import _is_cjk, wrapped_prose_lines


def reflow(text: str) -> str:
    lines = text.splitlines()
    while hits := wrapped_prose_lines("\n".join(lines)):
        i = hits[-1]
        prev, line = lines[i - 1].rstrip(), lines[i].strip()
        joiner = "" if (_is_cjk(prev[-1:]) or _is_cjk(line[:1])) else " "
        lines[i - 1 : i + 1] = [prev + joiner + line]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    for name in sys.argv[1:]:
        path = Path(name)
        path.write_text(reflow(path.read_text(encoding="utf-8")), encoding="utf-8")
