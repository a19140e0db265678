"""Search ranking (hook; both language builds).

Material reads ``search: boost:`` and ``search: exclude:`` from a page's metadata;
they are set here in one place instead of in the front matter of 2 x N pages:

* a section's overview is what a reader searching the section's name wants (量子化,
  mixed precision);
* the API reference of reference_impl repeats API names (state_dict, GradScaler) in
  heading-sized entries and would otherwise outrank the pages that teach them;
* the API reference is the same English docstrings on both sites. In the Japanese
  index it was a fifth of the bytes (183 KB) and outranked the Japanese pages for API
  names; Japanese readers find an API name on the page that teaches it, and the
  English site's search still covers the reference.

A heading's weight against a passing mention (search ``fields`` in mkdocs.yml), Japanese
words, long vowels, stop words, synonyms and how results are weighed by the reader's words:
docs/hooks/search_query.py and search_query.js.
"""

from __future__ import annotations

from _common import lang

SEARCH_BOOST = {
    "quantization/index.md": 1.5,
    "amp/index.md": 1.5,
    # The page about torch.amp.GradScaler: the other AMP pages name it in passing, and once its
    # H100 output made the page longer, the Japanese index ranked the AMP overview, FSDP and the
    # GPU overview above it for "torch.amp.GradScaler".
    "amp/grad-scaler.md": 1.3,
    # The page for readers who arrive with a symptom or a pasted message: its sections are
    # short lists of causes, and longer pages that mention the same words in passing (学習,
    # slow) ranked above it ("学習が遅い", "training is slow" found it sixth).
    "troubleshooting.md": 1.3,
}
SEARCH_BOOST_PREFIX = {"reference/": 0.5}
JA_SEARCH_EXCLUDE_PREFIX = "reference/"


def on_page_markdown(markdown, page, config, files, **kwargs):
    uri = page.file.src_uri
    boost = SEARCH_BOOST.get(uri) or next((b for p, b in SEARCH_BOOST_PREFIX.items() if uri.startswith(p)), None)
    if boost is not None:
        page.meta.setdefault("search", {}).setdefault("boost", boost)
    if lang(config) == "ja" and uri.startswith(JA_SEARCH_EXCLUDE_PREFIX):
        page.meta.setdefault("search", {})["exclude"] = True
    return markdown

