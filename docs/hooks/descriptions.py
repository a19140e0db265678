"""A ``<meta name="description">`` of its own for every page (hook; every build).

Search engines show it under the page's title; one text for all pages (the site's
``site_description``, Material's default) tells them nothing. A page's description is its
front matter ``description:`` where it has one, otherwise taken from the rendered page:

* the text of the "What:" / 「概要:」 bullet (or paragraph) that opens a topic page, or else
* the first paragraph of running text (not an admonition, a table, a figure, a tab, code,
  an output or a download link; notebook pages: the first markdown cell's; API reference
  pages: the module docstring's first paragraph),

as plain text with white space collapsed, cut after the last whole sentence that fits in
160 characters (English) or 120 (Japanese), or at a word (English) or 、 (Japanese) with "…"
when the first sentence alone is longer. It goes into ``page.meta["description"]``, which
Material prints. Two pages of one language with the same description fail the build: give
one of them a ``description:`` in its front matter. Checked by tests/test_site_findable.py.
"""

from __future__ import annotations

import re
from copy import copy

from _common import lang, page_tree, soup
from mkdocs.exceptions import PluginError

LIMITS = {"ja": 120, "en": 160}
MIN_LENGTH = {"ja": 15, "en": 40}  # shorter paragraphs are captions, labels or "see below"
WHAT_LABELS = {"What:", "概要:", "概要："}  # the label of STYLE.ja.md
# Not running text, left out before looking for the first paragraph: elements of these names, divs
# with one of these classes, any element with one of the last classes. Tested tag by tag (is_skipped)
# rather than by a CSS selector over the page: tree.select() of the selector, and a copy of every list
# item to look for the "What:" label, took a fifth of a build (about 0.25 s a page). SKIP is the same
# as a selector, for reading.
_SKIP_NAMES = frozenset({"details", "figure", "table", "pre", "h1", "h2", "h3", "h4", "h5", "h6", "sup", "script", "style"})
_SKIP_DIV_CLASSES = frozenset({"admonition", "tabbed-set", "highlight"})
_SKIP_CLASSES = frozenset({"headerlink", "jp-CodeCell", "jp-OutputArea", "doc-signature", "doc-heading", "arithmatex"})
SKIP = ", ".join([*sorted(_SKIP_NAMES), *(f"div.{c}" for c in sorted(_SKIP_DIV_CLASSES)), *(f".{c}" for c in sorted(_SKIP_CLASSES))])
DOWNLOAD_LINKS = "a.snippet-download, a.notebook-download, a[download]"
SENTENCE_END = {"ja": re.compile(r"。」?|[!?！？]"), "en": re.compile(r"[.!?](?=\s|$)")}
NOT_SENTENCE_END = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|approx)\.$", re.IGNORECASE)

_descriptions: dict[str, dict[str, str]] = {}  # site_dir -> page src_uri -> description


def plain(element) -> str:
    return " ".join(element.get_text().split())


def _first_child(element):
    return next((c for c in element.children if not (isinstance(c, str) and not c.strip())), None)


def _what(element) -> str | None:
    """The text of a "What:" bullet or paragraph after its label; None for any other."""
    first = _first_child(element)
    if getattr(first, "name", None) == "p":  # a loose list: <li><p><strong>
        first = _first_child(first)
    if getattr(first, "name", None) != "strong" or plain(first) not in WHAT_LABELS:
        return None
    starts_with_code = getattr(first.find_next_sibling(), "name", None) == "code" and not (
        first.next_sibling and str(first.next_sibling).strip()
    )
    first.decompose()
    text = plain(element)
    if text and not starts_with_code and text[0].isascii() and text[0].islower():
        text = text[0].upper() + text[1:]
    return text




def is_skipped(tag) -> bool:
    """Whether ``tag`` matches ``SKIP`` (the same test, without a CSS engine)."""
    if tag.name in _SKIP_NAMES:
        return True
    classes = tag.get("class") or ()
    if tag.name == "div" and not _SKIP_DIV_CLASSES.isdisjoint(classes):
        return True
    return not _SKIP_CLASSES.isdisjoint(classes)


def _skipped_ids(tree) -> set[int]:
    """The ids of every element and string that is, or is inside, a ``SKIP`` element."""
    skipped: set[int] = set()
    for tag in tree.find_all(True):
        if id(tag) not in skipped and is_skipped(tag):
            skipped.add(id(tag))
            skipped.update(map(id, tag.descendants))
    return skipped


def _first_kept_child(element, skipped: set[int]):
    """:func:`_first_child` of ``element`` once the ``SKIP`` elements are taken out."""
    return next(
        (c for c in element.children if id(c) not in skipped and not (isinstance(c, str) and not c.strip())), None
    )


def _may_be_what(element, skipped: set[int]) -> bool:
    """Whether :func:`_what` of ``element``'s copy without ``SKIP`` can find a label (it opens with <strong>)."""
    first = _first_kept_child(element, skipped)
    if getattr(first, "name", None) == "p":
        first = _first_kept_child(first, skipped)
    return getattr(first, "name", None) == "strong"


def _without_skipped(element):
    """A copy of this element alone, without what is not running text."""
    candidate = copy(element)
    for inner in candidate.find_all(is_skipped):
        inner.decompose()
    return candidate


def first_prose_in(tree, language: str) -> str:
    """The page's opening text: its "What:" bullet or its first paragraph of running text.

    ``tree`` is the page's content (docs/hooks/_common.py: one tree for all hooks), so it is not
    changed: what is not running text (``SKIP``) is left out of each candidate's copy.
    """
    skipped = _skipped_ids(tree)
    fallback = ""
    for element in tree.find_all(["p", "li"]):
        if id(element) in skipped:
            continue
        in_list = element.find_parent("li") is not None
        if (element.name == "li" or not in_list) and _may_be_what(element, skipped):
            text = _what(_without_skipped(element))
            if text:
                return text
        if element.name == "li" or in_list:
            continue
        candidate = _without_skipped(element)
        if candidate.select_one(DOWNLOAD_LINKS):
            continue
        text = plain(candidate)
        if len(text) >= MIN_LENGTH[language]:
            return text
        fallback = fallback or text
    return fallback


def first_prose(html_content: str, language: str) -> str:
    """:func:`first_prose_in` of a page's HTML."""
    return first_prose_in(soup(html_content), language)


def shorten(text: str, language: str) -> str:
    """``text`` cut to the language's limit: at a sentence end, else at a word (or 、) with "…"."""
    limit = LIMITS[language]
    text = text.strip()
    if text.endswith((":", "：")):  # a paragraph that introduces a list, table or code
        text = text[:-1].rstrip() + ("。" if language == "ja" else ".")
    if len(text) <= limit:
        return text
    ends = [
        m.end()
        for m in SENTENCE_END[language].finditer(text)
        if m.end() <= limit and not NOT_SENTENCE_END.search(text[: m.end()])
    ]
    if ends:
        return text[: ends[-1]].strip()
    head = text[: limit - 1]
    if language == "ja":
        cut = max(head.rfind("、"), head.rfind(" "))
    else:
        cut = head.rfind(" ")
    if cut > limit // 2:
        head = head[:cut]
    return head.rstrip(" ,;:、") + "…"


def description(html_content: str, language: str) -> str:
    return shorten(first_prose(html_content, language), language)


def description_in(tree, language: str) -> str:
    return shorten(first_prose_in(tree, language), language)


def on_pre_build(config, **kwargs):
    _descriptions[config["site_dir"]] = {}


def on_page_content(html_content, page, config, files, **kwargs):
    language = lang(config)
    given = page.meta.get("description")
    if given:
        text = " ".join(str(given).split())
        if len(text) > LIMITS[language]:
            raise PluginError(
                f"{page.file.src_uri}: the front matter description has {len(text)} characters"
                f" (at most {LIMITS[language]} in this language)"
            )
    else:
        text = description_in(page_tree(html_content, page), language)  # parsed once for every hook (_common.py)
        if not text:
            raise PluginError(f"{page.file.src_uri}: no paragraph to describe the page: add `description:` to its front matter")
    page.meta["description"] = text
    _descriptions[config["site_dir"]][page.file.src_uri] = text
    return html_content


def on_env(env, config, files, **kwargs):
    by_text: dict[str, list[str]] = {}
    for src, text in _descriptions.get(config["site_dir"], {}).items():
        by_text.setdefault(text, []).append(src)
    same = [pages for pages in by_text.values() if len(pages) > 1]
    if same:
        raise PluginError(
            "pages with the same description (give each a `description:` in its front matter): "
            + "; ".join(", ".join(pages) for pages in same)
        )
    return env
