"""Serve a built site (``site/``) on 127.0.0.1 as a static host would: 404 pages and compression.

``python -m http.server`` answers a missing file with its own bare HTML. This server answers
with the site's own 404 page in the language of the address: ``/en/...`` gets ``en/404.html``,
``/ja/...`` ``ja/404.html``, anything else the root's ``404.html`` (a copy of the Japanese one,
docs/hooks/root_pages.py), always with status 404. Used by ``.ci/serve`` and by
tests/test_site_not_found.py, tests/test_site_compression.py and tests/test_site_lighthouse.py.

It keeps connections open (HTTP/1.1) and compresses as the usual static hosts do (GitHub Pages,
Netlify, Cloudflare Pages, nginx with ``gzip on``): a text file (HTML, CSS, JavaScript, JSON such
as the search index, SVG, XML, plain text and code: :func:`compressible`) of at least
:data:`MIN_SIZE` bytes goes out gzipped to a client whose ``Accept-Encoding`` takes gzip, with
``Content-Encoding: gzip``; every text file goes out with ``Vary: Accept-Encoding``, so a cache on
the way keeps the two versions apart. Where the build wrote a ``<file>.gz`` beside the file
(docs/hooks/precompress.py calls :func:`precompress`) and it is not older than the file, those
bytes are sent as they are (as nginx's ``gzip_static on`` and Caddy's ``precompressed gzip`` do);
otherwise the file is gzipped here, once per version of the file. Pictures, fonts, archives and
wheels go out as they are.

    python .ci/serve_site.py [--port 8000] [--bind 127.0.0.1] [--directory site]
    python .ci/serve_site.py --precompress FOLDER   # write FOLDER/**/<file>.gz (what the build does)

Only the standard library: it runs with any Python >= 3.10, outside the project's virtualenv too.
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import io
import mimetypes
import os
import sys
import threading
from pathlib import Path

LANGUAGES = ("ja", "en")

# Media types a static host compresses (as GitHub Pages, Netlify and nginx's usual gzip_types):
# text of any kind, JavaScript, JSON (the search index), XML (the sitemaps), SVG (the figures).
COMPRESSIBLE_TYPES = ("application/javascript", "application/json", "application/xml",
                      "application/manifest+json", "image/svg+xml", "application/x-ipynb+json")
# Smaller files gain nothing (the headers and gzip's own 18 bytes outweigh it); nginx's default is 20,
# hosts use a few hundred bytes.
MIN_SIZE = 256
# The build precompresses a file from this size on (docs/hooks/precompress.py) and keeps the .gz only
# where it is at most this share of the file.
PRECOMPRESS_MIN_SIZE = 1024
PRECOMPRESS_KEEP_RATIO = 0.9


def compressible(content_type: str) -> bool:
    """Whether a static host compresses a file of this media type (parameters ignored)."""
    base = content_type.split(";", 1)[0].strip().lower()
    return base.startswith("text/") or base in COMPRESSIBLE_TYPES or base.endswith(("+json", "+xml"))


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (``gzip``, ``x-gzip`` or ``*``, q > 0)."""
    for item in (accept_encoding or "").split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            return True
    return False


def content_type(path: str | Path) -> str:
    """The media type the server sends ``path`` with (the standard handler's guess, without a handler)."""
    suffix = os.path.splitext(str(path))[1].lower()
    known = http.server.SimpleHTTPRequestHandler.extensions_map
    return known.get(suffix) or mimetypes.guess_type(str(path))[0] or "application/octet-stream"


def gzip_bytes(data: bytes) -> bytes:
    """``data`` gzipped at the highest level, with no time in its header (the same bytes every build)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def precompress(root: Path, min_size: int = PRECOMPRESS_MIN_SIZE) -> list[Path]:
    """Write ``<file>.gz`` beside every compressible file of ``root`` of ``min_size`` bytes or more,
    where gzip makes it at most :data:`PRECOMPRESS_KEEP_RATIO` of its size; the .gz files written."""
    written = []
    for path in sorted(Path(root).rglob("*")):
        if path.suffix == ".gz" or not path.is_file() or path.is_symlink():
            continue
        if not compressible(content_type(path)):
            continue
        data = path.read_bytes()
        if len(data) < min_size:
            continue
        packed = gzip_bytes(data)
        if len(packed) > PRECOMPRESS_KEEP_RATIO * len(data):
            continue
        target = path.with_name(path.name + ".gz")
        target.write_bytes(packed)
        stat = path.stat()
        os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # as new as its file: not "stale"
        written.append(target)
    return written


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    # Connections kept open between requests, as every host keeps them (HTTP/1.0, the standard
    # handler's default, opens one per file: Lighthouse's simulated network then counts a connection
    # set-up for each stylesheet and script, which no reader's browser pays on a real host).
    protocol_version = "HTTP/1.1"
    # gzipped on the fly: (path, size, mtime) -> bytes, shared by the server's threads
    _gzipped: dict[tuple[str, int, int], bytes] = {}
    _gzipped_lock = threading.Lock()
    _vary = False

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

    def end_headers(self):
        if self._vary:
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def file_of_request(self) -> Path | None:
        """The file a GET/HEAD of this address sends with status 200 (a folder's index.html), or None
        where the standard handler answers otherwise (a redirect to add the slash, a 404)."""
        address = self.path.split("?", 1)[0].split("#", 1)[0]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not address.endswith("/"):
                return None
            path = path / "index.html"
        return path if path.is_file() else None

    def gzipped(self, path: Path) -> bytes:
        """The file's bytes gzipped: its ``.gz`` where the build wrote one that is not older, else here."""
        stat = path.stat()
        ready = path.with_name(path.name + ".gz")
        if ready.is_file() and ready.stat().st_mtime_ns >= stat.st_mtime_ns:
            return ready.read_bytes()
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        with self._gzipped_lock:
            found = self._gzipped.get(key)
        if found is None:
            found = gzip_bytes(path.read_bytes())
            with self._gzipped_lock:
                self._gzipped[key] = found
        return found

    def send_head(self):
        self._vary = False
        path = self.file_of_request()
        if path is None:
            return super().send_head()
        content_type = self.guess_type(str(path))
        if not compressible(content_type):
            return super().send_head()
        self._vary = True  # the answer depends on Accept-Encoding, whichever this one is
        if path.stat().st_size < MIN_SIZE or not accepts_gzip(self.headers.get("Accept-Encoding")):
            return super().send_head()
        body = self.gzipped(path)
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", email.utils.formatdate(path.stat().st_mtime, usegmt=True))
        self.end_headers()
        return io.BytesIO(body)


class SiteServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A browser closing a kept-open connection (ConnectionResetError, BrokenPipeError) is not
        # an error of the server; anything else is printed as the standard server prints it.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(directory: str | Path, port: int = 0, bind: str = "127.0.0.1", quiet: bool = False):
    handler_class = SiteHandler
    if quiet:
        handler_class = type("QuietSiteHandler", (SiteHandler,), {"log_message": lambda self, *args: None})
    handler = functools.partial(handler_class, directory=str(directory))
    return SiteServer((bind, port), handler)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--directory", default="site")
    parser.add_argument("--precompress", metavar="FOLDER", help="write <file>.gz beside the compressible files and exit")
    args = parser.parse_args()
    if args.precompress:
        written = precompress(Path(args.precompress))
        print(f"{len(written)} precompressed files written below {args.precompress}")
        return
    server = make_server(args.directory, args.port, args.bind)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
