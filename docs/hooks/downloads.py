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

The fences are found by the one Markdown parser the tests use too (docs_tools.docs_model,
markdown-it-py), so a fence inside an admonition, a tab or a longer fence is what the tests see.
"""

from __future__ import annotations

import posixpath

from _common import REPO, label, soup, whole_snippet
from localize import localized
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

from docs_tools.docs_model import parse_markdown

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
    if "--8<--" not in markdown:
        return markdown
    lines = markdown.split("\n")
    links: dict[int, str] = {}  # 0-based line of a closing fence -> the link to put after it
    for fence in parse_markdown(markdown).fences:
        target = whole_snippet(fence)
        if target is None:
            continue
        indent = lines[fence.lineno - 1][: len(lines[fence.lineno - 1]) - len(lines[fence.lineno - 1].lstrip())]
        href = posixpath.relpath(target, posixpath.dirname(page_src) or ".")
        name = posixpath.basename(target)
        text = label(DOWNLOAD_LABEL, config, name=name)
        links[fence.end_lineno - 1] = f'{indent}[{text}]({href}){{ .snippet-download download="{name}" }}'
    out: list[str] = []
    for i, line in enumerate(lines):
        out.append(line)
        if i in links:
            out += ["", links[i]]
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
