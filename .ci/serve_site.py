"""Serve a built site (``site/``) on 127.0.0.1 as a static host would, 404 pages included.

``python -m http.server`` answers a missing file with its own bare HTML. This server answers
with the site's own 404 page in the language of the address: ``/en/...`` gets ``en/404.html``,
``/ja/...`` ``ja/404.html``, anything else the root's ``404.html`` (a copy of the Japanese one,
docs/hooks/root_pages.py), always with status 404. Used by ``.ci/serve`` and by
tests/test_site_not_found.py.

    python .ci/serve_site.py [--port 8000] [--directory site]
"""

from __future__ import annotations

import argparse
import functools
import http.server
from pathlib import Path

LANGUAGES = ("ja", "en")


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    def not_found_page(self) -> Path | None:
        first = self.path.lstrip("/").split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        root = Path(self.directory)
        for candidate in ([root / first / "404.html"] if first in LANGUAGES else []) + [root / "404.html"]:
            if candidate.is_file():
                return candidate
        return None

    def list_directory(self, path):
        # A folder without index.html is not a page: a static host answers 404, not a file listing.
        self.send_error(404, "File not found")
        return None

    def send_error(self, code, message=None, explain=None):
        page = self.not_found_page() if code == 404 else None
        if page is None:
            return super().send_error(code, message, explain)
        body = page.read_bytes()
        self.send_response(404, message)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def make_server(directory: str | Path, port: int = 0, bind: str = "127.0.0.1", quiet: bool = False):
    handler_class = SiteHandler
    if quiet:
        handler_class = type("QuietSiteHandler", (SiteHandler,), {"log_message": lambda self, *args: None})
    handler = functools.partial(handler_class, directory=str(directory))
    return http.server.ThreadingHTTPServer((bind, port), handler)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--directory", default="site")
    args = parser.parse_args()
    server = make_server(args.directory, args.port, args.bind)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
