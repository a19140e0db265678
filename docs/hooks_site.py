"""MkDocs hook for the site as readers use it (both language builds).

* Notebook pages: links to ``.md`` pages in notebook markdown become page URLs
  (mkdocs-jupyter leaves them as they are); headings get the ids of the English
  notebook's headings in both languages (nbconvert gives Japanese headings an
  empty id and the table of contents ``_1``, ``_2``... that point nowhere); the
  JupyterLab CSS that mkdocs-jupyter inlines into every notebook page (about
  600 KB) is moved into one shared, cacheable file ``assets/jupyter.<hash>.css``,
  keeping only the rules for classes the notebook pages use (about a tenth).
* Every page ends with a "tested with" line built from ``docs/tested-with.json``
  (written by ``pytest --record-tested-with`` after a passing run, committed).
* ``llms.txt`` for tools that read documentation: ``/<lang>/llms.txt`` lists the
  pages in navigation order with their titles and first sentences; ``/llms.txt``
  points to both.
* 404 pages: without ``site_url`` MkDocs renders ``404.html`` with asset paths
  relative to the server root (``/assets/...``), which do not exist because each
  language lives under ``/<lang>/``. The 404 page gets ``/<lang>/`` as its base
  instead, and the Japanese build also writes a root ``404.html``.
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.utils import normalize_url

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"

NB_HEADING = re.compile(
    r'<h(?P<level>[1-6]) id="(?P<id>[^"]*)">(?P<text>.*?)<a class="anchor-link" href="#[^"]*">¶</a></h(?P=level)>',
    re.S,
)
MD_LINK = re.compile(r'href="(?P<path>[^":#?]+\.md)(?P<frag>#[^"]*)?"')
STYLE = re.compile(r"<style[^>]*>(?P<css>.*?)</style>", re.S)
CLASS_ATTR = re.compile(r'class="([^"]*)"')
CSS_CLASS = re.compile(r"\.(-?[_a-zA-Z][\w-]*)")
NOTEBOOK_CSS_PLACEHOLDER = "assets/jupyter.css"

_notebook_css: dict[str, dict] = {}  # site_dir -> {css, classes used, notebook pages}, written after the build


def _lang(config) -> str:
    return config["theme"]["language"]


def _english_heading_ids(src_uri: str) -> list[str]:
    """The ids mkdocs-jupyter's table of contents gives the English notebook's headings."""
    from mkdocs_jupyter.plugin import _get_nb_toc_tokens

    tokens, _ = _get_nb_toc_tokens(str(DOCS / "en" / src_uri), 6)
    ids: list[str] = []

    def walk(items):
        for item in items:
            ids.append(item["id"])
            walk(item["children"])

    walk(tokens)
    return ids


def _toc_items(toc):
    for item in toc:
        yield item
        yield from _toc_items(item.children)


def _fix_notebook_headings(content: str, page) -> str:
    ids = _english_heading_ids(page.file.src_uri)
    headings = list(NB_HEADING.finditer(content))
    items = list(_toc_items(page.toc))
    if len(headings) != len(ids) or len(items) != len(ids):
        raise PluginError(
            f"{page.file.src_uri}: {len(headings)} headings and {len(items)} table-of-contents entries, "
            f"but the English notebook has {len(ids)} headings; the notebooks must have the same headings"
        )
    for item, new in zip(items, ids):
        item.id = new
    it = iter(ids)

    def replace(m):
        new = next(it)
        return f'<h{m["level"]} id="{new}">{m["text"]}<a class="anchor-link" href="#{new}">¶</a></h{m["level"]}>'

    return NB_HEADING.sub(replace, content)


def _fix_md_links(content: str, page, files) -> str:
    def replace(m):
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), m["path"]))
        file = files.get_file_from_path(target)
        if file is None:
            raise PluginError(f"{page.file.src_uri}: link to {m['path']} ({target}) does not exist")
        return f'href="{html.escape(file.url_relative_to(page.file))}{m["frag"] or ""}"'

    return MD_LINK.sub(replace, content)


def _move_notebook_css(content: str, page, config) -> str:
    css = "\n".join(m["css"].strip() for m in STYLE.finditer(content))
    if not css:
        return content
    state = _notebook_css.setdefault(config["site_dir"], {"css": css, "classes": set(), "pages": []})
    if state["css"] != css:
        raise PluginError(f"{page.file.src_uri}: its inline notebook CSS differs from the other notebooks'")
    state["classes"].update(c for m in CLASS_ATTR.finditer(content) for c in m[1].split())
    state["pages"].append(page.file.abs_dest_path)
    href = normalize_url(NOTEBOOK_CSS_PLACEHOLDER, page)
    first = True

    def replace(m):
        nonlocal first
        if first:
            first = False
            return f'<link rel="stylesheet" href="{href}">'
        return ""

    return STYLE.sub(replace, content)


def _selector_applies(selector: str, classes: set[str]) -> bool:
    """Whether every class a selector requires is used by some notebook page."""
    if re.search(r"\S\s+:root", selector):  # ".jupyter-wrapper :root" matches nothing
        return False
    selector = re.sub(r":(?:not|is|where|has)\([^)]*\)|\[[^\]]*\]", "", selector)
    return all(c in classes for c in CSS_CLASS.findall(selector))


def _split_selectors(head: str) -> list[str]:
    """Split a selector list at its top-level commas (not those inside :is(...))."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(head):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(head[start:k])
            start = k + 1
    return parts + [head[start:]]


def prune_css(css: str, classes: set[str]) -> str:
    """Drop the rules of a stylesheet whose selectors need a class no page uses.

    JupyterLab's stylesheet (~600 KB) styles a whole IDE; a rendered notebook uses
    a few dozen of its classes. Rules without classes, @keyframes, @font-face and
    the like are kept as they are; @media and @supports blocks are pruned inside.
    """
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out, i, n = [], 0, len(css)
    while i < n:
        brace = css.find("{", i)
        semi = css.find(";", i)
        if brace == -1:
            break
        head = css[i:brace].strip()
        if head.startswith("@") and semi != -1 and semi < brace:  # @charset, @import
            out.append(css[i : semi + 1].strip())
            i = semi + 1
            continue
        depth, j = 1, brace + 1
        while depth and j < n:
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
        body = css[brace + 1 : j - 1]
        if head.startswith(("@media", "@supports")):
            inner = prune_css(body, classes)
            if inner.strip():
                out.append(f"{head}{{{inner}}}")
        elif head.startswith("@"):
            out.append(f"{head}{{{body}}}")
        else:
            kept = [s.strip() for s in _split_selectors(head) if _selector_applies(s, classes)]
            if kept:
                out.append(f"{','.join(kept)}{{{body.strip()}}}")
        i = j
    # A rule repeated word for word (index.css and theme-light.css both set the
    # variables) counts once, at its last place, which is where it wins the cascade.
    last = {rule: k for k, rule in enumerate(out)}
    return "\n".join(rule for k, rule in enumerate(out) if last[rule] == k)


ROOT_LLMS_TXT = """# PyTorch 精度と量子化ガイド / PyTorch Precision & Quantization Guide

> PyTorch storage dtypes, automatic mixed precision and quantization, taught with tested code and measured figures. Two sites with the same pages: Japanese (default) and English.

## Languages

- [日本語 (Japanese)](ja/llms.txt): the pages of the Japanese site
- [English](en/llms.txt): the pages of the English site
"""

# Search ranking (Material reads ``search: boost:`` from a page's metadata; set here
# in one place instead of front matter in 2 x N pages). A section's overview is
# what a reader searching the section's name wants (量子化, mixed precision); the
# API reference of reference_impl repeats API names (state_dict, GradScaler) in
# heading-sized entries and would otherwise outrank the pages that teach them.
SEARCH_BOOST = {
    "quantization/index.md": 1.5,
    "amp/index.md": 1.5,
}
SEARCH_BOOST_PREFIX = {"reference/": 0.5}
# The API reference is the same English docstrings on both sites. In the Japanese index
# it was a fifth of the bytes (183 KB) and outranked the Japanese pages for API names
# (GradScaler); Japanese readers find an API name on the page that teaches it, and the
# English site's search still covers the reference.
JA_SEARCH_EXCLUDE_PREFIX = "reference/"


# Japanese search: lunr.ja's TinySegmenter splits some compounds of this site badly
# (自動混合精度 -> 自動混合 + 精度, 自然言語処理 -> 自然言 + 語処 + 理), and Material cuts a
# kanji query into words it finds in the index, so 混合精度 then finds nothing on the
# AMP pages. Like Material's jieba user dictionary for Chinese, these words are cut
# out of kanji runs in the search index with a zero-width space (a separator in
# mkdocs.yml) before TinySegmenter sees them. Only the index changes, not the pages.
JA_SEARCH_WORDS = ("自動", "混合", "精度", "自然", "言語", "処理", "勾配", "損失")
HAN_RUN = re.compile(r"[\u3400-\u9fff々]{3,}")
ZWSP = "\u200b"


def segment_ja(text: str) -> str:
    def cut(m):
        run, out, i = m.group(0), [], 0
        while i < len(run):
            word = max((w for w in JA_SEARCH_WORDS if run.startswith(w, i)), key=len, default=None)
            if word:
                out.extend([ZWSP, word, ZWSP])
                i += len(word)
            else:
                out.append(run[i])
                i += 1
        return "".join(out).strip(ZWSP).replace(ZWSP * 2, ZWSP)

    return HAN_RUN.sub(cut, text)


def _segment_search_index(site_dir: Path) -> None:
    path = site_dir / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    if ZWSP not in index["config"]["separator"] and "\\u200b" not in index["config"]["separator"]:
        raise PluginError("the Japanese search separator must contain a zero-width space (U+200B)")
    for doc in index["docs"]:
        doc["title"] = segment_ja(doc["title"])
        doc["text"] = segment_ja(doc["text"])
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


TESTED_WITH = DOCS / "tested-with.json"
TESTED_WITH_TEXT = {
    "ja": ("このサイトのコードの最終テスト: ", "torch {torch}・{kind}({device})・{date}", "、", "。"),
    "en": ("Code on this site last tested with ", "torch {torch} on {kind} ({device}), {date}", "; ", "."),
}


def tested_with_line(lang: str) -> str:
    """The line under every page, from the committed record of the last passing runs."""
    if not TESTED_WITH.is_file():
        raise PluginError(f"{TESTED_WITH.relative_to(REPO)} is missing: run `bash .ci/test --record-tested-with`")
    stamp = json.loads(TESTED_WITH.read_text(encoding="utf-8"))
    lead, item, sep, end = TESTED_WITH_TEXT[lang]
    kinds = {"cpu": "CPU", "cuda": "CUDA GPU"}
    runs = [item.format(kind=kinds[k], **stamp[k]) for k in ("cpu", "cuda") if k in stamp]
    if not runs:
        raise PluginError(f"{TESTED_WITH.relative_to(REPO)} records no run")
    return lead + sep.join(runs) + end


def on_config(config, **kwargs):
    config.extra["tested_with"] = tested_with_line(_lang(config))
    return config


def on_page_markdown(markdown, page, config, files, **kwargs):
    uri = page.file.src_uri
    boost = SEARCH_BOOST.get(uri) or next((b for p, b in SEARCH_BOOST_PREFIX.items() if uri.startswith(p)), None)
    if boost is not None:
        page.meta.setdefault("search", {}).setdefault("boost", boost)
    if _lang(config) == "ja" and uri.startswith(JA_SEARCH_EXCLUDE_PREFIX):
        page.meta.setdefault("search", {})["exclude"] = True
    return markdown


# llms.txt (https://llmstxt.org/): the pages of each language in navigation order,
# with their titles and a one-line description (the first sentence of the page).
_summaries: dict[str, dict[str, str]] = {}  # site_dir -> page url -> first sentence
_navs: dict[str, object] = {}
BLOCK_TAG = re.compile(r"<(?P<close>/?)(?P<tag>p|div|details|table|blockquote)\b[^>]*>")
TAGS = re.compile(r"<[^>]+>")


def first_sentence(html_content: str, limit: int = 200) -> str:
    """The first sentence of the page's first paragraph of running text: not an
    admonition (whose title is often a deprecation notice), a table or a tab."""
    depth, top_level = 0, []
    for m in BLOCK_TAG.finditer(html_content):
        if m["close"]:
            depth = depth if m["tag"] == "p" else max(depth - 1, 0)
        elif m["tag"] != "p":
            depth += 1
        elif depth == 0:
            top_level.append(m.end())
    starts = top_level or [m.end() for m in BLOCK_TAG.finditer(html_content) if m["tag"] == "p" and not m["close"] and "admonition-title" not in m[0]]
    for start in starts:
        end = html_content.find("</p>", start)
        text = " ".join(html.unescape(TAGS.sub("", html_content[start:end])).split())
        if len(text) < 20:
            continue
        stop = min((i for i in (text.find("。"), text.find(". ")) if i != -1), default=-1)
        sentence = text[: stop + 1] if stop != -1 else text
        return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"
    return ""


def on_nav(nav, config, files, **kwargs):
    _navs[config["site_dir"]] = nav
    return nav


def _llms_txt(config) -> str:
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


def on_page_content(html_content, page, config, files, **kwargs):
    _summaries.setdefault(config["site_dir"], {})[page.url] = first_sentence(html_content)
    if not page.file.src_uri.endswith(".ipynb"):
        return html_content
    html_content = _fix_notebook_headings(html_content, page)
    html_content = _fix_md_links(html_content, page, files)
    return _move_notebook_css(html_content, page, config)


def on_template_context(context, template_name, config, **kwargs):
    if template_name != "404.html" or config.get("site_url"):
        return context
    base = f"/{_lang(config)}/"
    context["base_url"] = base
    context["extra_css"] = [normalize_url(str(p), None, base) for p in config["extra_css"]]
    context["extra_javascript"] = [normalize_url(str(s), None, base) for s in config["extra_javascript"]]
    return context


def on_post_build(config, **kwargs):
    site_dir = Path(config["site_dir"])
    state = _notebook_css.pop(config["site_dir"], None)
    if state is not None:
        css = prune_css(state["css"], state["classes"] | {"jupyter-wrapper"})
        name = f"assets/jupyter.{hashlib.sha256(css.encode()).hexdigest()[:8]}.css"
        (site_dir / name).write_text(css + "\n", encoding="utf-8")
        for dest in state["pages"]:  # the placeholder name becomes the content-hashed one
            path = Path(dest)
            path.write_text(path.read_text(encoding="utf-8").replace(NOTEBOOK_CSS_PLACEHOLDER + '"', name + '"'), encoding="utf-8")
    (site_dir / "llms.txt").write_text(_llms_txt(config), encoding="utf-8")
    if _lang(config) == "ja":
        (site_dir.parent / "llms.txt").write_text(ROOT_LLMS_TXT, encoding="utf-8")
        if not config["use_directory_urls"]:  # the offline edition, opened from the file system
            root = site_dir.parent / "index.html"
            text = root.read_text(encoding="utf-8")
            root.write_text(re.sub(r'(["=])(ja|en)/"', r'\1\2/index.html"', text), encoding="utf-8")
        _segment_search_index(site_dir)
        # The root has no site of its own: its 404 page is the Japanese one, whose
        # asset paths are absolute (/ja/...), so it is styled wherever it is served from.
        (site_dir.parent / "404.html").write_bytes((site_dir / "404.html").read_bytes())
