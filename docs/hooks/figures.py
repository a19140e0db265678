"""Figures drawn by snippet scripts (hook; both language builds).

Every ``snippets/**/<name>.py`` whose sidecar ``<name>.test.toml`` names figures
(``figure = ["x.svg"]``, read by ``docs_tools.snippets.figure_names``) is run
(warnings as errors, in ``docs_tools.snippets.snippet_env``, the environment the
tests use) and the pictures it saves are published at
``figures/<snippet folder>/<x.svg>`` in both languages. The script runs with
``FIGURE_LANG`` set to the build's language, so the Japanese site gets the picture
with Japanese labels at the same path. So every picture on the site is made by code
that the page can show and that the tests run. Results are cached in
``.cache/figures`` by the hash of the script, of reference_impl and the language.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

from _common import REPO, lang
from docs_tools.snippets import figure_names, snippet_env
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File


def _library_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted((REPO / "reference_impl").rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _render(script: Path, names: list[str], library_hash: str, language: str) -> Path:
    key = hashlib.sha256(script.read_bytes() + library_hash.encode() + language.encode()).hexdigest()[:20]
    out = REPO / ".cache" / "figures" / key
    if all((out / name).is_file() for name in names):
        return out
    out.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, str(script)],
        cwd=out,
        env={**snippet_env(), "FIGURE_LANG": language},
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode != 0:
        raise PluginError(f"figure script {script.relative_to(REPO)} failed:\n{proc.stderr}")
    missing = [n for n in names if not (out / n).is_file()]
    if missing:
        raise PluginError(f"{script.relative_to(REPO)} did not save {missing}")
    return out


def on_files(files, config, **kwargs):
    library_hash = _library_hash()
    for script in sorted((REPO / "snippets").rglob("*.py")):
        names = figure_names(script)
        if not names:
            continue
        out = _render(script, names, library_hash, lang(config))
        folder = script.parent.relative_to(REPO / "snippets").as_posix()
        for name in names:
            files.append(File.generated(config, f"figures/{folder}/{name}", abs_src_path=str(out / name)))
    return files
