"""The 404 pages in Chromium (issue 33): each language's reader gets a 404 page in that language
that suggests pages, from `.ci/serve`'s server (.ci/serve_site.py) and from a host that shows only
the root's 404.html for every address.

The templates: docs/overrides/404.html; the root copy: docs/hooks/root_pages.py.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import threading
from urllib.request import urlopen
from urllib.error import HTTPError

import pytest

from docs_tools.docs_model import REPO
from tests.support.site_fixtures import Watched

pytestmark = [pytest.mark.site]

PHONE = {"viewport": {"width": 375, "height": 740}, "is_mobile": True, "has_touch": True}

_spec = importlib.util.spec_from_file_location("serve_site", REPO / ".ci" / "serve_site.py")
serve_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve_site)

HEADINGS = {"ja": "ページが見つかりません", "en": "Page not found"}


def serve(server):
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.fixture(scope="module")
def serve_url(built_site):
    """The site as .ci/serve serves it."""
    server = serve_site.make_server(built_site, quiet=True)
    yield serve(server)
    server.shutdown()
    server.server_close()


class RootOnlyHandler(http.server.SimpleHTTPRequestHandler):
    """A static host that shows the root's 404.html for every missing address (GitHub Pages does)."""

    def log_message(self, *args):
        pass

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (self.directory_path / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def root_only_url(built_site):
    handler = type("Handler", (RootOnlyHandler,), {"directory_path": built_site})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(built_site)))
    yield serve(server)
    server.shutdown()
    server.server_close()


def test_serve_answers_with_the_language_404_page_and_status(serve_url):
    for path, lang in (("en/no/such/page/", "en"), ("ja/no/such/page/", "ja"), ("nothing-here", "ja"), ("ja/assets/", "ja")):
        with pytest.raises(HTTPError) as caught:
            urlopen(serve_url + path)
        assert caught.value.code == 404
        body = caught.value.read().decode("utf-8")
        assert f'<html lang="{lang}"' in body and HEADINGS[lang] in body, path
    with urlopen(serve_url + "en/") as ok:
        assert ok.status == 200


@pytest.mark.parametrize("which", ["serve", "root-only host"])
@pytest.mark.parametrize(
    "lang,asked,expected",
    [
        ("en", "en/amp/gradscaler", "amp/grad-scaler/"),
        ("ja", "ja/quantisation/static.html", "quantization/static/"),
        ("en", "en/guide/tensor/", "guide/tensors/"),
    ],
)
def test_404_page_in_the_language_of_the_address_suggests_pages(browser, request, which, lang, asked, expected):
    base = request.getfixturevalue("serve_url" if which == "serve" else "root_only_url")
    watched = Watched(browser, base, **PHONE)
    page = watched.page
    try:
        response = page.goto(base + asked, wait_until="networkidle")
        assert response.status == 404
        # The 404 asked for is reported twice (the response, the console); nothing else may fail.
        expected_404 = [e for e in watched.errors if "404" in e]
        assert len(expected_404) <= 2, expected_404
        watched.errors = [e for e in watched.errors if "404" not in e]
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("article h1").inner_text().strip() == HEADINGS[lang]
        # The address stays the one the reader asked for (the root-only host's page goes through en/404.html).
        assert page.url == base + asked
        similar = page.locator(".not-found-similar a")
        assert similar.count() >= 1
        assert similar.first.get_attribute("href") == f"/{lang}/{expected}", similar.all_inner_texts()
        start = page.locator(".not-found-start a")
        assert start.count() >= 8
        hrefs = start.evaluate_all("ls => ls.map(l => l.getAttribute('href'))")
        assert f"/{lang}/troubleshooting/" in hrefs and f"/{lang}/" in hrefs
        # A suggestion is a page that exists.
        similar.first.click()
        page.wait_for_load_state("networkidle")
        assert page.url == f"{base}{lang}/{expected}"
        watched.check_clean()
    finally:
        watched.context.close()


def test_404_page_without_a_similar_address_shows_only_the_start(browser, serve_url):
    watched = Watched(browser, serve_url)
    try:
        watched.page.goto(serve_url + "en/zzzzqqqq/", wait_until="networkidle")
        assert watched.page.locator(".not-found-similar").is_hidden()
        assert watched.page.locator(".not-found-start a").count() >= 8
    finally:
        watched.context.close()
