"""The "tested with" line under every page (hook; both language builds).

Built from ``docs/tested-with.json`` (written by ``pytest --record-tested-with`` after
a passing run, committed) and printed by ``docs/overrides/main.html``.
"""

from __future__ import annotations

import json

from _common import DOCS, REPO, lang
from mkdocs.exceptions import PluginError

TESTED_WITH = DOCS / "tested-with.json"
TESTED_WITH_TEXT = {
    "ja": ("このサイトのコードの最終テスト: ", "torch {torch}・{kind}({device})・{date}", "、", "。"),
    "en": ("Code on this site last tested with ", "torch {torch} on {kind} ({device}), {date}", "; ", "."),
}


def tested_with_line(language: str) -> str:
    """The line under every page, from the committed record of the last passing runs."""
    if not TESTED_WITH.is_file():
        raise PluginError(f"{TESTED_WITH.relative_to(REPO)} is missing: run `bash .ci/test --record-tested-with`")
    stamp = json.loads(TESTED_WITH.read_text(encoding="utf-8"))
    lead, item, sep, end = TESTED_WITH_TEXT[language]
    kinds = {"cpu": "CPU", "cuda": "CUDA GPU"}
    runs = [item.format(kind=kinds[k], **stamp[k]) for k in ("cpu", "cuda") if k in stamp]
    if not runs:
        raise PluginError(f"{TESTED_WITH.relative_to(REPO)} records no run")
    return lead + sep.join(runs) + end


def on_config(config, **kwargs):
    config.extra["tested_with"] = tested_with_line(lang(config))
    return config
