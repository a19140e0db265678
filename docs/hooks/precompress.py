"""Precompressed copies of the site's text files (hook; both language builds, last).

After the build, every file a static host would compress (HTML, CSS, JavaScript, the search index,
SVG, XML, text; ``.ci/serve_site.py``'s list) of 1 KiB or more gets a ``<file>.gz`` beside it,
gzipped at the highest level, where that makes it at most 90 % of its size. ``.ci/serve_site.py``
sends those bytes as they are to a browser that takes gzip (nginx's ``gzip_static on`` and Caddy's
``precompressed gzip`` do the same); hosts that compress on their own (GitHub Pages, Netlify,
Cloudflare Pages) leave them alone. The search index, about 1.2 MB, is about a quarter of that
gzipped.

Not in the offline edition: it opens from the file system, where nothing is sent compressed, and
the copies would only make its zip larger.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from _common import REPO, is_offline

_spec = importlib.util.spec_from_file_location("serve_site", REPO / ".ci" / "serve_site.py")
serve_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve_site)


def on_post_build(config, **kwargs):
    if is_offline(config):
        return
    serve_site.precompress(Path(config["site_dir"]))
