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

Where a result really differs by kind of CPU (int8 arithmetic without VNNI), the
snippet has a second recorded output, ``name.avx2.out``, recorded with an AVX2-only
CPU's kernels (``bash .ci/test-avx2 tests/test_snippets.py -k name --update-outputs``);
the page shows both, and the test compares with the one for the CPU it runs on.
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


def machine_class() -> str:
    """``"avx2"`` where PyTorch dispatches to AVX2 kernels (or none), else ``"default"``.

    An AVX2-only CPU, or a newer one limited by ``ATEN_CPU_CAPABILITY=avx2``
    (``.ci/test-avx2`` sets it together with the oneDNN, FBGEMM and MKL switches).
    """
    import torch

    capability = torch.backends.cpu.get_cpu_capability()
    return "avx2" if capability in {"AVX2", "DEFAULT", "NO AVX"} else "default"


def expected_output_file(script: Path) -> Path:
    """The recorded output to compare ``script``'s run with on this machine (``x.avx2.out`` or ``x.out``)."""
    variant = script.with_suffix(f".{machine_class()}.out")
    return variant if variant.exists() else script.with_suffix(".out")
