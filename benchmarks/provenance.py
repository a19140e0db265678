"""Which run produced a committed result: a digest recorded when the run wrote the file.

Every result file the benchmark writes (``<case>.json`` from ``python -m benchmarks``,
``probes.json`` from ``python -m benchmarks.probes``) ends with a ``provenance`` block::

    "provenance": {
      "run": "2026-11-26 17:17 UTC · cuda · 3f9a1c2e",
      "sha256": "<64 hex digits>",
      "recorded": "measured by python -m benchmarks"
    }

* ``run`` names the run: its stamp's date, the device and a random part drawn once per run, so
  every file one run writes carries the same name (and the same stamp);
* ``sha256`` is the digest of everything else in the file, as canonical JSON (`canonical`: keys
  sorted, no blanks, UTF-8), computed by the run from what it wrote;
* ``recorded`` says who recorded the digest: the run itself, or (for the files committed before
  digests existed) a one-off that recorded the digest of the file as it was committed, without
  measuring anything again.

The tables (``<case>.md``, ``<case>.ja.md``) are rendered from the JSON and are not part of
the digest, so ``python -m benchmarks --render-only`` rewrites them at any time (a changed
catalog text) without touching the JSON. A number changed by hand in a JSON file, with its
tables re-rendered, no longer matches the digest: tests/test_bench_provenance.py fails on it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any, Mapping

__all__ = ["KEY", "MEASURED", "canonical", "digest", "new_run", "problems", "seal"]

#: The key of the block in a result file.
KEY = "provenance"
#: ``recorded`` of a digest that the run itself recorded when it wrote the file.
MEASURED = "measured by python -m benchmarks"


def canonical(data: Mapping[str, Any]) -> bytes:
    """The canonical JSON of a result file's data, without its ``provenance`` block.

    Examples:
        >>> canonical({"b": 1.5, "a": "倍", "provenance": {"sha256": "x"}})
        b'{"a":"\\xe5\\x80\\x8d","b":1.5}'
    """
    body = {k: v for k, v in data.items() if k != KEY}
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def digest(data: Mapping[str, Any]) -> str:
    """sha256 (hex) of `canonical` ``data``: what ``provenance.sha256`` records."""
    return hashlib.sha256(canonical(data)).hexdigest()


def new_run(env: Mapping[str, Any]) -> str:
    """A name for one run: its stamp's date and device and a random part (the same for every file it writes).

    Examples:
        >>> new_run({"date": "2026-11-26 17:17 UTC", "device": "cuda"})  # doctest: +ELLIPSIS
        '2026-11-26 17:17 UTC · cuda · ...'
    """
    return f"{env.get('date', '?')} · {env.get('device', '?')} · {secrets.token_hex(4)}"


def seal(data: Mapping[str, Any], run: str, recorded: str = MEASURED) -> dict[str, Any]:
    """``data`` as plain JSON types, with its ``provenance`` block (run, digest, who recorded it) last.

    The data goes through a JSON text first, so that the digest is that of what the file holds
    (a float, a tuple or a key written and read back), and the check of the file recomputes it.

    Args:
        data: A result file's data (any ``provenance`` block in it is replaced).
        run: The run's name (`new_run`).
        recorded: Who recorded the digest (`MEASURED` for a run).

    Returns:
        The sealed data, ready for ``json.dumps``.
    """
    body = json.loads(json.dumps({k: v for k, v in data.items() if k != KEY}, ensure_ascii=False))
    return {**body, KEY: {"run": run, "sha256": digest(body), "recorded": recorded}}


def problems(data: Mapping[str, Any]) -> list[str]:
    """What is wrong with a result file's provenance (an empty list when nothing is).

    Examples:
        >>> sealed = seal({"rows": [{"ratio": 4.0}]}, "2026-11-26 17:17 UTC · cuda · 3f9a1c2e")
        >>> problems(sealed)
        []
        >>> sealed["rows"][0]["ratio"] = 0.25
        >>> problems(sealed)  # doctest: +ELLIPSIS
        ['the data differ from the digest its run recorded (sha256 ...); ...']
    """
    block = data.get(KEY)
    if not isinstance(block, dict):
        return [f"no {KEY!r} block: the file does not name the run that produced it"]
    found = [f"{KEY}.{field} is missing or empty" for field in ("run", "sha256", "recorded")
             if not isinstance(block.get(field), str) or not block[field].strip()]
    if found:
        return found
    now = digest(data)
    if block["sha256"] != now:
        found.append(f"the data differ from the digest its run recorded (sha256 {block['sha256'][:12]}..., "
                     f"now {now[:12]}...); a result is changed by measuring again (python -m benchmarks), never by hand")
    return found
