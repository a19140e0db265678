"""Snippet, data and notebook downloads (hook; both language builds).

* Every ``snippets/**/*.py`` is published at ``snippets/<path>`` in both languages (on the
  Japanese site with its Japanese comments, localize.py),
  and each ```` ```python ```` fence that includes one whole snippet is followed by a
  link to that file ("Download name.py", class ``snippet-download``), added here so
  that both languages get it; outputs.py moves it below the block's output, if any.
* Data files a snippet reads (``snippets/**/data/*``) are published too, for pages to
  link to.
* A notebook page gets a link to its ``.ipynb`` (copied next to the page by
  mkdocs-jupyter's ``include_source``) under its title.
"""

from __future__ import annotations

import posixpath
import re

from _common import REPO, label, soup
from localize import localized
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,})(?P<info>.*)$")
WHOLE_SNIPPET = re.compile(r'^\s*--8<--\s+"(?P<path>snippets/[^"]+\.py)"\s*$')
DOWNLOAD_LABEL = {"ja": "{name} をダウンロード", "en": "Download {name}"}
NOTEBOOK_LABEL = {"ja": "このノートブック({name})をダウンロード", "en": "Download this notebook ({name})"}


def on_files(files, config, **kwargs):
    published = [*(REPO / "snippets").rglob("*.py"), *(REPO / "snippets").rglob("data/*")]
    for path in sorted(p for p in published if p.is_file()):
        # the Japanese site offers the script with Japanese comments, as its pages show it
        source = localized(path, config)
        files.append(File.generated(config, path.relative_to(REPO).as_posix(), abs_src_path=str(source)))
    return files


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
            text = label(DOWNLOAD_LABEL, config, name=name)
            out += ["", f'{indent}[{text}]({href}){{ .snippet-download download="{name}" }}']
        i = j + 1
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files, **kwargs):
    return download_links(markdown, page.file.src_uri, config)


def on_post_page(output, page, config, **kwargs):
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    tree = soup(output)
    name = posixpath.basename(page.file.src_uri)
    p = tree.new_tag("p")
    a = tree.new_tag("a", attrs={"class": "notebook-download", "href": name, "download": ""})
    a.string = label(NOTEBOOK_LABEL, config, name=name)
    p.append(a)
    # Right under the notebook's own title (its first heading), else at the top of the article.
    heading = tree.find("h1")
    if heading is not None:
        heading.insert_after(p)
    else:
        article = tree.select_one("article.md-content__inner")
        if article is None:
            raise PluginError(f"{page.file.src_uri}: no place for the notebook download link")
        article.insert(0, p)
    return str(tree)
