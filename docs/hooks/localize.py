"""Example scripts with Japanese comments on the Japanese site (hook; the ja build only).

Each ``snippets/<topic>/<name>.py`` that has a ``<name>.ja.toml`` (docs_tools.localize) is
written with its Japanese comments and docstrings to ``build/snippets-ja/snippets/...``, and
that folder is put first in pymdownx.snippets' ``base_path``: the page's include line
(``--8<-- "snippets/<topic>/<name>.py"``) is the same in both languages, and the Japanese
page shows the Japanese script. downloads.py publishes the same file (:func:`localized`),
so what a Japanese reader downloads is what they see. The code is the English file's: the
tests check that the two differ only in comments and docstrings (tests/test_snippets.py).

A sidecar that does not cover its script (a comment added or changed since it was
translated) is a warning, so the strict build fails, naming the comment
(``python -m docs_tools.localize check``); ``mkdocs serve`` shows English there meanwhile.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from _common import REPO, lang
from docs_tools import localize as _localize
from mkdocs.exceptions import PluginError

OUT = REPO / "build" / "snippets-ja"
log = logging.getLogger("mkdocs.hooks.localize")


def localized(path: Path, config) -> Path:
    """The file the build shows and publishes for the snippet ``path`` (absolute)."""
    if lang(config) == "ja":
        candidate = OUT / path.relative_to(REPO)
        if candidate.is_file():
            return candidate
    return path


def _write(target: Path, text: str) -> None:
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)


def on_config(config, **kwargs):
    if lang(config) != "ja":
        return config
    wanted = set()
    for sidecar in sorted((REPO / "snippets").rglob(f"*{_localize.SUFFIX}")):
        script = sidecar.with_name(sidecar.name.removesuffix(_localize.SUFFIX) + ".py")
        if not script.is_file():
            raise PluginError(f"{sidecar.relative_to(REPO)} has no {script.name} next to it")
        source, table = script.read_text(encoding="utf-8"), _localize.load(sidecar)
        try:
            text = _localize.localize(source, table)
        except _localize.LocalizeError as error:
            # a warning fails the strict build (the tests); `mkdocs serve` still shows the page,
            # with English where the Japanese is missing
            log.warning(f"{script.relative_to(REPO)}: {error} (python -m docs_tools.localize check)")
            text = _localize.localize(source, table, partial=True)
        target = OUT / script.relative_to(REPO)
        _write(target, text)
        wanted.add(target)
    if OUT.is_dir():
        for stale in OUT.rglob("*.py"):
            if stale not in wanted:
                stale.unlink()
    snippets = config["mdx_configs"].setdefault("pymdownx.snippets", {})
    base = [str(p) for p in snippets.get("base_path", [])]
    snippets["base_path"] = [str(OUT), *(p for p in base if p != str(OUT))]
    return config
