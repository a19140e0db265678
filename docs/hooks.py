"""MkDocs hooks shared by both language builds (mkdocs.yml, mkdocs.en.yml).

* Figures: every ``snippets/**/*.py`` with a ``# figure: name.svg`` header is run
  (warnings as errors) and the picture it saves is published at
  ``figures/<snippet folder>/name.svg`` in both languages. The script runs with
  ``FIGURE_LANG`` set to the build's language (``theme.language``), so the
  Japanese site gets the picture with Japanese labels at the same path. So every picture on the
  site is made by code that the page can show and that the tests run. Results
  are cached in ``.cache/figures`` by the hash of the script, of reference_impl and the language.
* Downloads: every ``snippets/**/*.py`` is published at ``snippets/<path>`` in both
  languages, and each ```` ```python ```` fence that includes a whole snippet is followed by
  a link to that file ("Download name.py"), added here so that both languages get it. A
  notebook page gets a link to its ``.ipynb`` (copied next to the page by mkdocs-jupyter's
  ``include_source``) under its title. Data files a snippet reads (``snippets/**/data/*``) are
  published too, for pages to link to.
* Root page: after the default-language build, write ``<site>/index.html``,
  which sends readers to the Japanese site (the default), with plain links to
  both languages for readers without meta refresh.
"""

from __future__ import annotations

import hashlib
import html
import posixpath
import re
import subprocess
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

REPO = Path(__file__).resolve().parents[1]
FIGURE_HEADER = re.compile(r"^#\s*figure:\s*(?P<name>\S+)\s*$", re.M)

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,})(?P<info>.*)$")
WHOLE_SNIPPET = re.compile(r'^\s*--8<--\s+"(?P<path>snippets/[^"]+\.py)"\s*$')
DOWNLOAD_LABEL = {"ja": "{name} をダウンロード", "en": "Download {name}"}
NOTEBOOK_LABEL = {"ja": "このノートブック({name})をダウンロード", "en": "Download this notebook ({name})"}

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
    published = [*(REPO / "snippets").rglob("*.py"), *(REPO / "snippets").rglob("data/*")]
    for path in sorted(p for p in published if p.is_file()):
        files.append(File.generated(config, path.relative_to(REPO).as_posix(), abs_src_path=str(path)))
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


def _label(table: dict[str, str], config, name: str) -> str:
    return table.get(config["theme"]["language"], table["en"]).format(name=name)


def download_links(markdown: str, page_src: str, config) -> str:
    """Put a link to the file after every python fence that includes one whole snippet."""
    lines = markdown.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent, fence, info = m.group("indent"), m.group("fence"), m.group("info").strip()
        j = i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence) and lines[j].strip().strip("`") == ""):
            j += 1
        out.extend(lines[i : j + 1])
        body = [ln for ln in lines[i + 1 : j] if ln.strip()]
        include = WHOLE_SNIPPET.match(body[0]) if len(body) == 1 else None
        if include and (info == "python" or info.startswith("python ")):
            target = include.group("path")
            href = posixpath.relpath(target, posixpath.dirname(page_src) or ".")
            name = posixpath.basename(target)
            out += ["", f'{indent}[{_label(DOWNLOAD_LABEL, config, name)}]({href}){{ .snippet-download download="{name}" }}']
        i = j + 1
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files, **kwargs):
    return download_links(markdown, page.file.src_uri, config)


def on_post_page(output, page, config, **kwargs):
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    name = posixpath.basename(page.file.src_uri)
    link = (
        f'<p><a class="notebook-download" href="{html.escape(name)}" download>'
        f"{html.escape(_label(NOTEBOOK_LABEL, config, name))}</a></p>"
    )
    # Right under the notebook's own title (its first heading), else at the top of the article.
    heading = re.search(r"<h1[^>]*>.*?</h1>", output, re.S)
    if heading:
        return output[: heading.end()] + link + output[heading.end() :]
    article = re.search(r'<article class="md-content__inner md-typeset">', output)
    if article is None:
        raise PluginError(f"{page.file.src_uri}: no place for the notebook download link")
    return output[: article.end()] + link + output[article.end() :]


def on_post_build(config, **kwargs):
    if config["theme"]["language"] != "ja":
        return
    site_root = Path(config["site_dir"]).parent
    (site_root / "index.html").write_text(ROOT_PAGE, encoding="utf-8")
