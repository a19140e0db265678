"""The pages at the site root and the 404 pages (hook; both language builds).

Each language is its own MkDocs site under ``/<lang>/`` (README, "Why one MkDocs
build per language"), so the root has no site of its own. After the Japanese
(default) build this hook writes there:

* ``index.html``, which sends readers to ``ja/`` (meta refresh, with plain links to
  both languages for readers without it);
* ``llms.txt``, which points tools that read documentation to both languages'
  ``llms.txt`` (see llms_txt.py);
* ``404.html``, a copy of the Japanese one (not in the offline edition: no server shows it), for
  hosts that show the root's 404 page for every address: its script sends an address under
  ``/en/`` on to ``en/404.html`` (docs/overrides/404.html), so each language's reader gets that
  language's page and its suggestions (``.ci/serve_site.py`` serves each language's own);
* with ``SITE_URL`` set (a deployment, alternates.py), ``sitemap.xml``: a sitemap index
  that names both languages' ``sitemap.xml``, for search engines that look at the root.

Without ``site_url`` MkDocs renders ``404.html`` with asset paths relative to the
server root (``/assets/...``), which do not exist: the 404 page gets ``/<lang>/`` as
its base instead, so it is styled wherever it is served from.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from _common import deployment_root, is_offline, lang
from mkdocs.utils import normalize_url

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
# The offline edition (use_directory_urls: false) is opened from the file system,
# where a link to a folder shows a folder listing.
OFFLINE_ROOT_PAGE = ROOT_PAGE.replace('"ja/"', '"ja/index.html"').replace("=ja/", "=ja/index.html").replace(
    '"en/"', '"en/index.html"'
)

SITEMAP_INDEX = """<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
{entries}</sitemapindex>
"""

ROOT_LLMS_TXT = """# PyTorch 精度と量子化ガイド / PyTorch Precision & Quantization Guide

> PyTorch storage dtypes, automatic mixed precision and quantization, taught with tested code and measured figures. Two sites with the same pages: Japanese (default) and English.

## Languages

- [日本語 (Japanese)](ja/llms.txt): the pages of the Japanese site
- [English](en/llms.txt): the pages of the English site
"""


def on_template_context(context, template_name, config, **kwargs):
    if template_name != "404.html" or config.get("site_url"):
        return context
    base = f"/{lang(config)}/"
    context["base_url"] = base
    context["extra_css"] = [normalize_url(str(p), None, base) for p in config["extra_css"]]
    context["extra_javascript"] = [normalize_url(str(s), None, base) for s in config["extra_javascript"]]
    return context


def on_post_build(config, **kwargs):
    if lang(config) != "ja":
        return
    site_dir = Path(config["site_dir"])
    root = site_dir.parent
    (root / "index.html").write_text(ROOT_PAGE if config["use_directory_urls"] else OFFLINE_ROOT_PAGE, encoding="utf-8")
    (root / "llms.txt").write_text(ROOT_LLMS_TXT, encoding="utf-8")
    if not is_offline(config):  # files opened from a disk have no server to show a 404 page
        (root / "404.html").write_bytes((site_dir / "404.html").read_bytes())
    url = deployment_root()
    if url and not is_offline(config):
        entries = "".join(f"  <sitemap><loc>{escape(url + code)}/sitemap.xml</loc></sitemap>\n" for code in ("ja", "en"))
        (root / "sitemap.xml").write_text(SITEMAP_INDEX.format(entries=entries), encoding="utf-8")

