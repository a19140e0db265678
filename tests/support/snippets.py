"""What a snippet file declares in its header, and the environment it runs in.

Used by tests/test_snippets.py and by docs/hooks.py (which runs figure scripts at
build time), so it imports nothing beyond the standard library: building the
docs needs no test dependency.

Header comments, in a snippet's first 15 lines:

* ``# requires: cuda`` -- needs a GPU (skipped with a reason on CPU machines);
* ``# requires-module: onnxruntime`` -- skipped with a reason if not importable;
* ``# timeout: 120`` -- seconds (default 300);
* ``# allow-stderr: <regex>`` -- stderr lines matching it are tolerated (say why in a
  comment next to it). Anything else on stderr fails;
* ``# figure: name.svg`` -- the script saves that picture in its working folder; the site
  build publishes it at ``figures/<snippet folder>/name.svg``;
* ``# output-tolerance: rel=0.02 abs=1e-6`` -- how far printed numbers may move on
  another machine (see tests/support/outputs.py for the rule).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.support import warning_policy

REPO = Path(__file__).resolve().parents[2]
HEADER = re.compile(
    r"^#\s*(?P<key>requires|requires-module|timeout|allow-stderr|figure|output-tolerance):\s*(?P<value>.+?)\s*$"
)


def snippet_headers(path: Path) -> dict[str, list[str]]:
    """The header comments of a snippet, key -> values in order."""
    headers: dict[str, list[str]] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines()[:15]:
        m = HEADER.match(line)
        if m:
            headers.setdefault(m.group("key"), []).append(m.group("value"))
    return headers


def snippet_env() -> dict[str, str]:
    """The environment snippets run in: warnings as errors (with the allow-list), no display, fixed hash seed."""
    env = dict(os.environ)
    env.update(PYTHONWARNINGS=warning_policy.pythonwarnings_env(), MPLBACKEND="Agg", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env
