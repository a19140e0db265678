"""Where each language lives, and the links between the two (hook; every build).

Each language is its own MkDocs site under ``<root>/<lang>/`` (README, "Why one MkDocs
build per language"), and both have the same page paths (tests/test_parity.py).

* ``site_url``: ``SITE_URL`` names the root of a deployment (``https://example.org/guide/``);
  each build's ``site_url`` becomes ``<SITE_URL><lang>/``, so that MkDocs writes a
  sitemap.xml of every page and Material a ``<link rel="canonical">`` on every page. Without
  ``SITE_URL`` (tests, a local build) there is no absolute URL to give: no canonical links,
  an empty sitemap. The offline edition (Material's offline plugin) is read from files and
  never has one. Under ``mkdocs serve`` MkDocs sets ``site_url`` to its own address, kept.
* On every page, the head's ``<link rel="alternate" hreflang>`` point at the *same page*
  in each language, plus ``hreflang="x-default"`` at the Japanese (default) one: absolute
  when ``SITE_URL`` is set, root-relative (``/en/...``) otherwise, relative in the offline
  edition. The 404 pages point at the home pages.
* The header's language links (``docs/overrides/partials/alternate.html``) go to the same
  page in the other language, relative to the page, so they work on any host, under any
  prefix, from the file system and without JavaScript.

Both come from ``extra.alternate`` (the languages, their names and order), which this hook
sets for each page just before Material renders it, as mkdocs-static-i18n does.
``docs/overrides/assets/language-switch.js`` keeps Material's script from requesting a
``sitemap.xml`` next to each alternate link and carries the ``#section`` across.
"""

from __future__ import annotations

import posixpath
from urllib.parse import urlsplit

from _common import deployment_root, is_offline, lang
from mkdocs.exceptions import PluginError

DEFAULT_LANG = "ja"  # hreflang="x-default": readers whose language is neither get Japanese

_languages: dict[str, list[dict[str, str]]] = {}  # site_dir -> [{"lang", "name"}], as configured
_roots: dict[str, str | None] = {}  # site_dir -> the deployment's root URL (SITE_URL), if any


def on_config(config, **kwargs):
    here = lang(config)
    languages = [{"lang": alt["lang"], "name": alt["name"]} for alt in config["extra"].get("alternate") or []]
    if here not in {alt["lang"] for alt in languages} or DEFAULT_LANG not in {alt["lang"] for alt in languages}:
        raise PluginError(f"extra.alternate must list this build's language ({here}) and {DEFAULT_LANG}")
    _languages[config["site_dir"]] = languages
    root = deployment_root()
    if is_offline(config):
        # Its pages end in .html: a canonical URL or sitemap entry would name pages the
        # deployment does not have.
        config["site_url"] = None
        root = None
    elif root and config.get("site_url") and config["site_url"].rstrip("/") == root.rstrip("/"):
        config["site_url"] = f"{root}{here}/"  # from `site_url: !ENV SITE_URL`; not under `mkdocs serve`
    else:
        root = None
    _roots[config["site_dir"]] = root
    return config


def _page_path(config, url: str) -> str:
    """A page's URL below its language root as the build writes it ("" is the home page)."""
    if not config["use_directory_urls"] and url in ("", "./", "."):
        return "index.html"
    return "" if url in ("./", ".") else url


def head_href(config, language: str, path: str) -> str:
    """Where a head ``<link rel="alternate">`` points: the page ``path`` in ``language``."""
    root = _roots.get(config["site_dir"])
    if root:
        return f"{root}{language}/{path}"
    if is_offline(config):
        return f"../{language}/{path}"  # from this site's root; Material's `url` filter makes it relative to the page
    return f"/{language}/{path}"


def switch_href(config, language: str, page_url: str | None) -> str:
    """The header's link to ``language``: relative to the page (None: the 404 page)."""
    if page_url is None:
        # The 404 page is served at whatever address was asked for (and copied to the root by
        # root_pages.py): start at the server's root. (The offline edition's is never shown.)
        if is_offline(config):
            return f"/{language}/index.html"
        root = _roots.get(config["site_dir"])
        return f"{urlsplit(root).path if root else '/'}{language}/"
    path = _page_path(config, page_url)
    folder = path if path.endswith("/") or not path else posixpath.dirname(path) + "/"
    if folder == "/":
        folder = ""
    return "../" * (folder.count("/") + 1) + f"{language}/{path}"


def alternates(config, page_url: str | None) -> list[dict[str, str]]:
    """``extra.alternate`` for one page (None: the 404 page, which has no counterpart).

    Each entry: ``lang``, ``name``, ``link`` (the head's link; Material passes it through its
    ``url`` filter) and ``switch`` (the header's link, final); last the ``x-default`` entry,
    which has no ``switch`` and is left out of the header.
    """
    path = _page_path(config, page_url if page_url is not None else "")
    out = [
        {
            "lang": alt["lang"],
            "name": alt["name"],
            # The offline edition's 404 page is never shown (no server): root-relative like the rest of it.
            "link": f"/{alt['lang']}/{path}" if page_url is None and is_offline(config) else head_href(config, alt["lang"], path),
            "switch": switch_href(config, alt["lang"], page_url),
        }
        for alt in _languages[config["site_dir"]]
    ]
    default = next(alt for alt in out if alt["lang"] == DEFAULT_LANG)
    out.append({"lang": "x-default", "name": default["name"], "link": default["link"]})
    return out


def on_page_context(context, page, config, nav, **kwargs):
    config["extra"]["alternate"] = alternates(config, page.url)
    return context


def on_template_context(context, template_name, config, **kwargs):
    if template_name == "404.html":
        config["extra"]["alternate"] = alternates(config, None)
    return context
