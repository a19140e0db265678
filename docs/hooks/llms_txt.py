"""``llms.txt`` (https://llmstxt.org/) for tools that read documentation (hook; both builds).

``/<lang>/llms.txt`` lists the pages in navigation order with their titles and a
one-line description (the first sentence of the page); ``/llms.txt`` (root_pages.py)
points to both.
"""

from __future__ import annotations

from pathlib import Path

from _common import soup

_summaries: dict[str, dict[str, str]] = {}  # site_dir -> page url -> first sentence
_navs: dict[str, object] = {}
BLOCKS = ("div", "details", "table", "blockquote")


def first_sentence(html_content: str, limit: int = 200) -> str:
    """The first sentence of the page's first paragraph of running text: not an
    admonition (whose title is often a deprecation notice), a table or a tab."""
    tree = soup(html_content)
    paragraphs = tree.find_all("p")
    top_level = [p for p in paragraphs if p.find_parent(BLOCKS) is None]
    candidates = top_level or [p for p in paragraphs if "admonition-title" not in (p.get("class") or [])]
    for p in candidates:
        text = " ".join(p.get_text().split())
        if len(text) < 20:
            continue
        stop = min((i for i in (text.find("。"), text.find(". ")) if i != -1), default=-1)
        sentence = text[: stop + 1] if stop != -1 else text
        return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"
    return ""


def on_nav(nav, config, files, **kwargs):
    _navs[config["site_dir"]] = nav
    return nav


def on_page_content(html_content, page, config, files, **kwargs):
    _summaries.setdefault(config["site_dir"], {})[page.url] = first_sentence(html_content)
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
