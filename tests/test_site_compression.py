"""`.ci/serve_site.py` compresses as a static host does, and the build's precompressed files (issue 42).

On a tiny folder (no site build, a second): a text file goes out gzipped to a client that takes
gzip and plain to one that does not, both with ``Vary: Accept-Encoding``, the gzipped bytes being the
file's; a picture goes out as it is; a ``<file>.gz`` the build wrote is sent as it is, unless it is
older than its file; ``q=0`` refuses gzip; a 404 page and a folder's index.html are served as before.
On the built site (marked ``site``): the search index and the stylesheets have their ``.gz``
(docs/hooks/precompress.py) and a page goes out compressed.
"""

from __future__ import annotations

import gzip
import importlib.util
import os
import threading
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest

from docs_tools.docs_model import REPO

_spec = importlib.util.spec_from_file_location("serve_site", REPO / ".ci" / "serve_site.py")
serve_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve_site)

PAGE = ("<!doctype html><html lang='en'><title>t</title><p>" + "float16 bfloat16 " * 400 + "</p></html>").encode()


def get(url: str, encoding: str | None):
    request = Request(url, headers={"Accept-Encoding": encoding} if encoding is not None else {})
    try:
        with urlopen(request) as response:
            return response.status, response.headers, response.read()
    except HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.fixture
def served(tmp_path):
    root = tmp_path / "site"
    (root / "en" / "page").mkdir(parents=True)
    (root / "en" / "page" / "index.html").write_bytes(PAGE)
    (root / "en" / "404.html").write_bytes(b"<!doctype html><title>404</title><h1>Page not found</h1>" + b" " * 300)
    (root / "en" / "search").mkdir()
    (root / "en" / "search" / "search_index.json").write_bytes(b'{"docs": [' + b'{"text": "float16"},' * 300 + b"{}]}")
    (root / "en" / "figure.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(2000))
    (root / "en" / "small.css").write_bytes(b"body{margin:0}")
    server = serve_site.make_server(root, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("address", ["en/page/", "en/search/search_index.json"])
def test_text_goes_out_gzipped_to_a_client_that_takes_it_and_plain_otherwise(served, address):
    root, url = served
    original = (root / address / "index.html" if address.endswith("/") else root / address).read_bytes()
    status, headers, body = get(url + address, "gzip, deflate, br")
    assert status == 200 and headers["Content-Encoding"] == "gzip", dict(headers)
    assert headers["Vary"] == "Accept-Encoding" and int(headers["Content-Length"]) == len(body)
    assert gzip.decompress(body) == original and len(body) < len(original) / 4
    for refusing in (None, "identity", "gzip;q=0, br"):
        status, headers, body = get(url + address, refusing)
        assert status == 200 and headers["Content-Encoding"] is None, (refusing, dict(headers))
        assert headers["Vary"] == "Accept-Encoding" and body == original, refusing


def test_pictures_and_tiny_files_go_out_as_they_are(served):
    root, url = served
    status, headers, body = get(url + "en/figure.png", "gzip")
    assert status == 200 and headers["Content-Encoding"] is None and headers["Vary"] is None
    assert body == (root / "en" / "figure.png").read_bytes()
    status, headers, body = get(url + "en/small.css", "gzip")  # below MIN_SIZE: not worth it
    assert headers["Content-Encoding"] is None and headers["Vary"] == "Accept-Encoding" and body == b"body{margin:0}"


def test_the_builds_gz_is_sent_as_it_is_unless_older_than_its_file(served):
    root, url = served
    index = root / "en" / "search" / "search_index.json"
    written = serve_site.precompress(root)
    assert sorted(p.relative_to(root).as_posix() for p in written) == [
        "en/page/index.html.gz", "en/search/search_index.json.gz"], written  # not the picture, not tiny files
    marked = index.with_name(index.name + ".gz")
    marked.write_bytes(gzip.compress(index.read_bytes() + b" "))  # told apart from what the server would make
    os.utime(marked, ns=(index.stat().st_atime_ns, index.stat().st_mtime_ns))
    _, headers, body = get(url + "en/search/search_index.json", "gzip")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == index.read_bytes() + b" "
    os.utime(marked, ns=(index.stat().st_atime_ns, index.stat().st_mtime_ns - 10**9))  # stale
    _, headers, body = get(url + "en/search/search_index.json", "gzip")
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == index.read_bytes()


def test_not_found_and_folders_are_served_as_before(served):
    root, url = served
    status, headers, body = get(url + "en/missing/", "gzip")
    assert status == 404 and b"Page not found" in body and headers["Content-Encoding"] is None
    status, headers, body = get(url + "en/search/", "gzip")  # a folder without index.html: no listing
    assert status == 404
    request = Request(url + "en/page", headers={"Accept-Encoding": "gzip"})
    with urlopen(request) as response:  # the redirect to the slash is followed
        assert response.url.endswith("/en/page/") and gzip.decompress(response.read()) == PAGE


def test_accept_encoding_is_read_as_the_standard_says():
    accepts = serve_site.accepts_gzip
    assert accepts("gzip") and accepts("br, gzip;q=0.5") and accepts("*") and accepts("x-gzip")
    assert not accepts(None) and not accepts("") and not accepts("br") and not accepts("gzip;q=0")
    assert not accepts("identity") and not accepts("gzip; q=0.0")


@pytest.mark.site
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_built_site_has_its_gz_files_and_is_served_compressed(built_site, lang):
    root = built_site / lang
    index = root / "search" / "search_index.json"
    packed = index.with_name(index.name + ".gz")
    assert packed.is_file(), "no precompressed search index (docs/hooks/precompress.py)"
    assert gzip.decompress(packed.read_bytes()) == index.read_bytes() and packed.stat().st_size < index.stat().st_size / 3
    for css in root.glob("assets/stylesheets/*.css"):
        assert css.with_name(css.name + ".gz").is_file() or css.stat().st_size < serve_site.PRECOMPRESS_MIN_SIZE, css
    assert not list(root.rglob("*.png.gz")) and not list(root.rglob("*.zip.gz"))
    server = serve_site.make_server(built_site, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/{lang}/support-matrix/"
        status, headers, body = get(url, "gzip")
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(body) == (root / "support-matrix" / "index.html").read_bytes()
    finally:
        server.shutdown()
        server.server_close()
