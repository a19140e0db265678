"""``llms.txt`` (https://llmstxt.org/) for tools that read documentation (hook; both builds).

``/<lang>/llms.txt`` lists the pages in navigation order with their titles and a
one-line description (the page's meta description, descriptions.py); ``/llms.txt``
(root_pages.py) points to both.
"""

from __future__ import annotations

from pathlib import Path

_summaries: dict[str, dict[str, str]] = {}  # site_dir -> page url -> description
_navs: dict[str, object] = {}


def on_nav(nav, config, files, **kwargs):
    _navs[config["site_dir"]] = nav
    return nav


def on_page_content(html_content, page, config, files, **kwargs):
    # Set by descriptions.py (listed before this hook): the page's own meta description.
    _summaries.setdefault(config["site_dir"], {})[page.url] = page.meta.get("description", "")
    return html_content


def llms_txt(config) -> str:
    summaries = _summaries.get(config["site_dir"], {})
    lines = [f"# {config['site_name']}", "", f"> {config['site_description']}", ""]

    def entry(page):
        desc = summaries.get(page.url, "")
        return f"- [{page.title}]({page.url or './'})" + (f": {desc}" if desc else "")

    top = []
    for item in _navs[config["site_dir"]].items:
        if item.is_page:
            top.append(entry(item))
            continue
        lines += [f"## {item.title}", ""]
        stack = list(item.children)
        while stack:
            child = stack.pop(0)
            if child.is_page:
                lines.append(entry(child))
            elif child.children:
                stack[:0] = child.children
        lines.append("")
    return "\n".join(lines[:4] + top + [""] + lines[4:]).rstrip() + "\n"


def on_post_build(config, **kwargs):
    (Path(config["site_dir"]) / "llms.txt").write_text(llms_txt(config), encoding="utf-8")
