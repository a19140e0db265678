"""MkDocs hooks shared by both language builds (mkdocs.yml, mkdocs.en.yml).

* Figures: every ``snippets/**/*.py`` with a ``# figure: name.svg`` header is run
  (warnings as errors) and the picture it saves is published at
  ``figures/<snippet folder>/name.svg`` in both languages. The script runs with
  ``FIGURE_LANG`` set to the build's language (``theme.language``), so the
  Japanese site gets the picture with Japanese labels at the same path. So every picture on the
  site is made by code that the page can show and that the tests run. Results
  are cached in ``.cache/figures`` by the hash of the script, of reference_impl and the language.
* Root page: after the default-language build, write ``<site>/index.html``,
  which sends readers to the Japanese site (the default), with plain links to
  both languages for readers without meta refresh.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

REPO = Path(__file__).resolve().parents[1]
FIGURE_HEADER = re.compile(r"^#\s*figure:\s*(?P<name>\S+)\s*$", re.M)

ROOT_PAGE = """<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<title>PyTorch 精度と量子化ガイド / PyTorch Precision &amp; Quantization Guide</title>
<meta http-equiv="refresh" content="0; url=ja/">
<link rel="canonical" href="ja/">
<link rel="icon" href="ja/assets/images/favicon.png">
</head>
<body>
<p><a href="ja/">日本語</a> · <a href="en/" hreflang="en">English</a></p>
</body>
</html>
"""


def _library_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted((REPO / "reference_impl").rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _render(script: Path, names: list[str], library_hash: str, lang: str) -> Path:
    key = hashlib.sha256(script.read_bytes() + library_hash.encode() + lang.encode()).hexdigest()[:20]
    out = REPO / ".cache" / "figures" / key
    if all((out / name).is_file() for name in names):
        return out
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(REPO))
    from tests.support.snippets import snippet_env  # the same environment as the snippet tests (no pytest needed)

    proc = subprocess.run(
        [sys.executable, str(script)], cwd=out, env={**snippet_env(), "FIGURE_LANG": lang}, capture_output=True, text=True, timeout=600
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
        names = FIGURE_HEADER.findall(script.read_text(encoding="utf-8")[:2000])
        if not names:
            continue
        out = _render(script, names, library_hash, config["theme"]["language"])
        folder = script.parent.relative_to(REPO / "snippets").as_posix()
        for name in names:
            files.append(File.generated(config, f"figures/{folder}/{name}", abs_src_path=str(out / name)))
    return files


def on_post_build(config, **kwargs):
    if config["theme"]["language"] != "ja":
        return
    site_root = Path(config["site_dir"]).parent
    (site_root / "index.html").write_text(ROOT_PAGE, encoding="utf-8")
