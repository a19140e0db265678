"""What a deployment publishes, built by the scripts that publish it (README "Deployment").

``SITE_URL=https://example.org/guide/ bash .ci/build`` is run for real: the script itself, in a
copy of ``.ci/`` whose ``.venv/bin/mkdocs`` serves each ``mkdocs build --strict -f <config>`` the
script asks for from the site build cache (tests/support/site_fixtures.py; the same key as a
build of that config with that environment, so nothing is built twice) and whose ``.ci/setup``
does nothing (the test's environment is set up). ``.ci/build`` runs ``.ci/offline`` first, with
the caller's ``SITE_URL``, as a deployment does, zips it with the script's own line, and builds
both languages with ``OFFLINE_EDITION`` = that zip. Then:

* the deployment's root (docs/hooks/root_pages.py): the sitemap index names both languages'
  sitemaps by absolute URL under ``SITE_URL``; each language's sitemap lists every page, by
  absolute URL under its language; the root index, 404 page and ``llms.txt`` lead to files that
  exist, and the root index's canonical link is the page its refresh sends readers to (both in the
  offline edition's root too); the 404 pages (served at any address) load their styles and scripts from under
  ``SITE_URL`` and link to pages that exist; no ``robots.txt`` (below);
* every page of both languages (docs/hooks/alternates.py): one canonical link, its own absolute
  URL; ``hreflang`` alternates ja, en and x-default, absolute, under ``SITE_URL``, at the same
  page in each language (x-default: Japanese), each a page of the build;
* the offline edition's zip as ``.ci/offline`` wrote it: one folder ``site-offline/`` with its
  ``index.html``, both languages each with its ``index.html``, every page of the online build,
  and nothing in it that leaves the edition: no stylesheet, script, picture or frame from
  another host, no link to the deployed site and no mention of its address (it was built with
  ``SITE_URL`` set, as in a deployment); no link that climbs out of ``site-offline/``. Broken
  links inside it and its pages in a browser are tests/test_site_offline.py's;
* both languages offer for download exactly that zip.

No ``robots.txt``: a crawler reads it only at the root of a host (``https://example.org/robots.txt``),
and ``SITE_URL`` may name a folder of a host (``/guide/``), where a ``robots.txt`` is never read;
the sitemap index is submitted to search engines instead (README "Deployment"). Allowing every
page, which is what no ``robots.txt`` means, is what this site wants; one that a page folder
brought in by mistake could only hide the site. The test fails on one, so that adding one is a
decision.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path, PurePosixPath
from posixpath import normpath
from urllib.parse import urljoin, urlsplit
from xml.etree import ElementTree

import pytest
from bs4 import BeautifulSoup

from docs_tools.docs_model import REPO
from tests.support import site_html
from tests.support.site_crawl import OPAQUE, REF, TAG
from tests.support.site_fixtures import DEPLOY_SITE_URL

# Cold, the first test waits for built_site's two builds and then four more (the offline edition's
# two, then the site's two, each pair side by side): 32 minutes on two cores at load 12
# (2026-11-28), against 600 s for one test otherwise.
pytestmark = [pytest.mark.site, pytest.mark.timeout(2700)]

LANGS = ("ja", "en")
SITE_URL = DEPLOY_SITE_URL  # the offline tests share its offline builds (site_fixtures.OFFLINE_ENV)
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
OFFLINE_ZIP = f"pytorch-precision-guide-{VERSION}-offline.zip"
ROOT_FILES = {"index.html", "404.html", "sitemap.xml", "llms.txt", "ja", "en"}
# The zip's files' time stamps, whatever the cache's copy had: the same zip bytes every run, so
# that the site build cache can serve the builds that publish it (their key holds its digest).
STAMP = 1767225600  # 2026-01-01 00:00 UTC


# -- the scripts, with their builds served by the site build cache ------------------------------------


def ci_copy(where: Path) -> Path:
    """A folder with this checkout's ``.ci/build`` and ``.ci/offline``, a ``.ci/setup`` that does
    nothing, and a ``.venv/bin`` whose ``python`` is this one and whose ``mkdocs`` is
    :func:`cached_mkdocs`."""
    (where / ".ci").mkdir(parents=True)
    for script in ("build", "offline"):
        shutil.copy2(REPO / ".ci" / script, where / ".ci" / script)
    (where / ".ci" / "setup").write_text("# the test's environment is set up already\n", encoding="utf-8")
    bin_dir = where / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = shlex.quote(sys.executable)
    (bin_dir / "python").write_text(f'#!/bin/sh\nexec {python} "$@"\n', encoding="utf-8")
    run = f"import sys; sys.path.insert(0, {str(REPO)!r}); from tests.test_site_deploy import cached_mkdocs; sys.exit(cached_mkdocs(sys.argv[1:]))"
    (bin_dir / "mkdocs").write_text(f'#!/bin/sh\nexec {python} -c {shlex.quote(run)} "$@"\n', encoding="utf-8")
    for tool in bin_dir.iterdir():
        tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    return where


def cached_mkdocs(argv: list[str]) -> int:
    """``mkdocs build --strict -f CONFIG`` as the scripts call it, run in a :func:`ci_copy`: the
    build of this checkout's CONFIG, with the ``SITE_URL`` and ``OFFLINE_EDITION`` the script
    gives it, from the site build cache, copied to the config's ``site_dir`` below the folder."""
    from tests.support.site_fixtures import mkdocs_build

    if len(argv) != 4 or argv[:3] != ["build", "--strict", "-f"]:
        print(f"cached mkdocs: the scripts call `mkdocs build --strict -f CONFIG`, not {argv}", file=sys.stderr)
        return 2
    config = REPO / argv[3]
    site_dir = re.search(r"^site_dir:\s*(\S+)\s*$", config.read_text(encoding="utf-8"), re.M)
    env = {key: os.environ[key] for key in ("SITE_URL", "OFFLINE_EDITION") if key in os.environ}
    if env.get("OFFLINE_EDITION"):  # the script names it relative to its folder
        env["OFFLINE_EDITION"] = str(Path.cwd() / env["OFFLINE_EDITION"])
    out = Path.cwd() / site_dir[1]
    proc = mkdocs_build(config, out, env)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if proc.returncode == 0:
        # every run's zip the same bytes: its files' times fixed (its folder's last, after both
        # languages' copies, whichever ends first)
        for path in [out, *out.rglob("*"), *out.parent.iterdir(), out.parent]:
            with contextlib.suppress(FileNotFoundError):  # the other language's copy, under way
                os.utime(path, (STAMP, STAMP), follow_symlinks=False)
    return proc.returncode


@pytest.fixture(scope="module")
def deployment(built_site, tmp_path_factory, worker_id) -> Path:
    """The folder ``SITE_URL=https://example.org/guide/ bash .ci/build`` was run in: ``site/`` and
    ``site-offline.zip``. After built_site (the site tests' schedule; its caches). Once per test
    run: the first worker runs it in the folder the workers share, the others wait for it and read
    the same folder (two workers running it at once doubled its builds)."""
    from tests.support.shared_cache import flock
    from tests.support.site_fixtures import run_dir_of

    shared = run_dir_of(tmp_path_factory, worker_id) / "deployment"
    folder, done, failed = shared / "checkout", shared / ".done", shared / "failed.txt"
    with flock(shared.with_name("deployment.lock")):
        if not done.exists() and not failed.exists():
            try:
                run_ci_build(folder)
            except AssertionError as error:
                failed.write_text(str(error), encoding="utf-8")
                raise
            done.touch()
    if failed.exists():
        pytest.fail(failed.read_text(encoding="utf-8"), pytrace=False)
    return folder


def run_ci_build(folder: Path) -> Path:
    """``SITE_URL=https://example.org/guide/ bash .ci/build`` in a :func:`ci_copy` at ``folder``."""
    ci_copy(folder)
    env = {**os.environ, "SITE_URL": SITE_URL}
    env.pop("OFFLINE_EDITION", None)
    # its own process group: stopped whole (its builds too) if the test is interrupted
    proc = subprocess.Popen(["bash", ".ci/build"], cwd=folder, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = proc.communicate()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
    assert proc.returncode == 0, f"SITE_URL={SITE_URL} bash .ci/build failed:\n{output[-12000:]}"
    return folder


# -- reading what was built -----------------------------------------------------------------------------


def pages(root: Path) -> dict[str, Path]:
    """A language's built pages by URL below its root ("" the home page, "404.html")."""
    out = {}
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        out[rel.removesuffix("index.html")] = path
    return out


def head(path: Path) -> BeautifulSoup:
    """A page's head (the whole page would cost seconds for ~120 pages)."""
    text = path.read_text(encoding="utf-8")
    end = text.find("</head>")
    assert end != -1, f"{path}: no head"
    return BeautifulSoup(text[:end], "html.parser")


def deployed_file(site: Path, url: str) -> Path | None:
    """The file of ``site/`` that the absolute ``url`` is served from, or None (not under
    ``SITE_URL``, or no such file)."""
    if not url.startswith(SITE_URL):
        return None
    path = urlsplit(url).path[len(urlsplit(SITE_URL).path):]
    target = site / path
    if not path or path.endswith("/"):
        target = target / "index.html"
    return target if ".." not in PurePosixPath(path).parts and target.is_file() else None


def refs(html: str) -> list[tuple[str, str]]:
    """(tag, URL) of every link, stylesheet, script, picture and frame in a page."""
    text = OPAQUE.sub(lambda m: m.group(0)[: m.group(0).find(">") + 1], html)
    return [(tag["tag"].lower(), ref["url"]) for tag in TAG.finditer(text) for ref in REF.finditer(tag["attrs"])]


def sitemap_locs(path: Path, root_tag: str) -> list[str]:
    tree = ElementTree.parse(path).getroot()
    assert tree.tag == f"{SITEMAP_NS}{root_tag}", f"{path.name}: <{tree.tag}>, not a {root_tag}"
    return [loc.text.strip() for loc in tree.iter(f"{SITEMAP_NS}loc")]


# -- the deployed site ----------------------------------------------------------------------------------


def test_the_root_holds_the_sitemap_index_and_the_pages_for_every_address(deployment):
    site = deployment / "site"
    found = {path.name for path in site.iterdir()}
    assert found == ROOT_FILES, f"the deployment's root: {sorted(found)}, expected {sorted(ROOT_FILES)}"
    assert not list(site.rglob("robots.txt")), "a robots.txt in the deployment (see this module's docstring)"
    index = sitemap_locs(site / "sitemap.xml", "sitemapindex")
    assert sorted(index) == sorted(f"{SITE_URL}{lang}/sitemap.xml" for lang in LANGS), index
    for url in index:
        assert deployed_file(site, url) is not None, f"the sitemap index names {url}, which the deployment lacks"
    root_html = (site / "index.html").read_text(encoding="utf-8")
    home = BeautifulSoup(root_html, "html.parser")
    targets = {urljoin(SITE_URL, a["href"]) for a in home.select("a[href]")}
    assert targets == {f"{SITE_URL}{lang}/" for lang in LANGS}, targets
    refresh = home.select_one('meta[http-equiv="refresh"]')["content"].split("url=", 1)[1]
    assert deployed_file(site, urljoin(SITE_URL, refresh)) == site / "ja" / "index.html", refresh
    # The root page's head is deployed too: its canonical address is the page it sends readers to (an
    # English canonical on a page that redirects to ja/ passed: independent review, 2026-11-29), and
    # every reference in it (canonical, icon, links) leads to a file of the deployment.
    canonical = [link["href"] for link in home.select('link[rel="canonical"]')]
    assert len(canonical) == 1, f"the root index.html has {len(canonical)} canonical links: {canonical}"
    assert deployed_file(site, urljoin(SITE_URL, canonical[0])) == site / "ja" / "index.html", (
        f"the root index.html redirects to {refresh} but names {canonical[0]} as its canonical page")
    for tag, url in refs(root_html):
        assert deployed_file(site, urljoin(SITE_URL, url)) is not None, f"the root index.html: <{tag}> {url}"
    for line in re.findall(r"\]\(([^)]+)\)", (site / "llms.txt").read_text(encoding="utf-8")):
        assert deployed_file(site, urljoin(SITE_URL, line)) is not None, f"llms.txt: {line}"


@pytest.mark.parametrize("lang", LANGS)
def test_each_sitemap_lists_every_page_by_its_address(deployment, lang):
    site = deployment / "site"
    built = sorted(url for url in pages(site / lang) if url != "404.html")
    locs = sitemap_locs(site / lang / "sitemap.xml", "urlset")
    assert len(locs) == len(set(locs)), "a page listed twice"
    assert sorted(locs) == [f"{SITE_URL}{lang}/{url}" for url in built]
    for url in locs:
        assert deployed_file(site, url) is not None, url


@pytest.mark.parametrize("page", ["404.html", "ja/404.html", "en/404.html"])
def test_the_404_pages_work_at_any_address(deployment, page):
    """Served at whatever address was asked for (the root one for the whole host): every same-site
    stylesheet, script, picture and link resolves, from a shallow and a deep address alike, to a
    file under SITE_URL; the alternates name both home pages."""
    site = deployment / "site"
    html = (site / page).read_text(encoding="utf-8")
    folder = page.rpartition("/")[0]
    served_at = [f"{SITE_URL}{folder}/no-such-page" if folder else f"{SITE_URL}no-such-page",
                 f"{SITE_URL}{folder + '/' if folder else ''}a/b/c/no-such-page/"]
    checked = 0
    for tag, url in refs(html):
        if url.startswith("#") or urlsplit(url).scheme not in ("", "http", "https"):
            continue
        for address in served_at:
            target = urljoin(address, url)
            if urlsplit(target).netloc != urlsplit(SITE_URL).netloc:
                break  # another site (the repository, a cited paper)
            assert deployed_file(site, target) is not None, f"{page} served at {address}: <{tag}> {url} -> {target}"
            checked += 1
    assert checked > 20, f"{page}: only {checked} references checked"
    alternates = {link["hreflang"]: link["href"] for link in head(site / page).select('link[rel="alternate"][hreflang]')}
    assert alternates == {"ja": f"{SITE_URL}ja/", "en": f"{SITE_URL}en/", "x-default": f"{SITE_URL}ja/"}, alternates


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_its_canonical_address_and_absolute_alternates(deployment, lang):
    site = deployment / "site"
    built = pages(site / lang)
    assert len(built) > 60
    for url, path in built.items():
        if url == "404.html":
            continue  # no address of its own (above)
        tree = head(path)
        here = f"{SITE_URL}{lang}/{url}"
        assert [link["href"] for link in tree.select('link[rel="canonical"]')] == [here], f"{lang}/{url}: canonical"
        links = tree.select('link[rel="alternate"][hreflang]')
        alternates = {link["hreflang"]: link["href"] for link in links}
        assert len(alternates) == len(links) and alternates.keys() == {"ja", "en", "x-default"}, f"{lang}/{url}: {alternates}"
        for code, href in alternates.items():
            assert href.startswith(SITE_URL), f"{lang}/{url}: hreflang={code} {href} is not under {SITE_URL}"
            target = deployed_file(site, href)
            same = "ja" if code == "x-default" else code
            assert target == built_path(site, same, url), f"{lang}/{url}: hreflang={code} {href} is not {same}/{url}"
        assert alternates[lang] == here, f"{lang}/{url}: its own alternate is not its canonical address"


def built_path(site: Path, lang: str, url: str) -> Path:
    path = site / lang / url
    return path / "index.html" if not url or url.endswith("/") else path


def test_both_languages_offer_the_zip_that_ci_offline_built(deployment):
    made = (deployment / "site-offline.zip").read_bytes()
    for lang in LANGS:
        offered = deployment / "site" / lang / "downloads" / OFFLINE_ZIP
        assert offered.is_file() and offered.read_bytes() == made, f"{lang}: downloads/{OFFLINE_ZIP} is not .ci/offline's zip"


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_offers_the_zip_with_its_size_and_language_links_stay_relative(deployment, lang):
    """The download link (docs/hooks/offline_edition.py) with the zip's size as its human_size
    writes it; the header's language links relative, so that a copy of the site works anywhere."""
    size = (deployment / "site-offline.zip").stat().st_size
    written = f"{size / 1_000_000:.1f} MB" if size >= 1_000_000 else f"{max(1, round(size / 1000))} KB"
    home = BeautifulSoup((deployment / "site" / lang / "index.html").read_text(encoding="utf-8"), "html.parser")
    link = home.select_one(f'a[href="downloads/{OFFLINE_ZIP}"]')
    assert link is not None and link.has_attr("download"), f"{lang}: no download link on the home page"
    assert written in link.parent.get_text(), f"{lang}: {written} not in {link.parent.get_text()!r}"
    for url, path in pages(deployment / "site" / lang).items():
        if url == "404.html":
            continue  # served at any address: its links are absolute (test_the_404_pages_work_at_any_address)
        switch = site_html.header(path).select("a.md-select__link[hreflang]")  # the header alone: 12 s less per language
        assert switch and all(not re.match(r"\w+:|/", a["href"]) for a in switch), f"{lang}/{url}: {switch}"


# -- the offline edition's zip -------------------------------------------------------------------------

# What a page loads (a stylesheet, script, picture, frame; a <link> of any kind): from another host,
# it does not load without a network.
ASSET_TAGS = {"link", "script", "img", "source", "iframe"}
TEXT_SUFFIXES = (".html", ".css", ".txt", ".xml", ".json", ".js", ".ipynb", ".py")


@pytest.fixture(scope="module")
def offline_zip(deployment):
    with zipfile.ZipFile(deployment / "site-offline.zip") as archive:
        assert archive.testzip() is None, "a damaged member"
        yield archive


def offline_page(names: set[str], lang: str, url: str) -> str | None:
    """The offline edition's file of the online page ``url`` (plain .html URLs: ``a/b/`` is
    ``a/b.html`` or ``a/b/index.html``), or None."""
    base = f"site-offline/{lang}/"
    if not url.endswith("/") and url:
        candidates = [base + url]
    else:
        candidates = [base + url + "index.html"] + ([base + url.rstrip("/") + ".html"] if url else [])
    found = [c for c in candidates if c in names]
    return found[0] if len(found) == 1 else None


def test_the_offline_zip_holds_both_languages_and_every_page(deployment, offline_zip):
    names = set(offline_zip.namelist())
    outside = sorted(n for n in names if not n.startswith("site-offline/") or ".." in n.split("/"))
    assert not outside, f"members outside the one folder site-offline/: {outside[:10]}"
    for index in ("site-offline/index.html", *(f"site-offline/{lang}/index.html" for lang in LANGS)):
        assert index in names, f"the zip has no {index}"
    root = BeautifulSoup(offline_zip.read("site-offline/index.html").decode("utf-8"), "html.parser")
    assert {a["href"] for a in root.select("a[href]")} == {f"{lang}/index.html" for lang in LANGS}
    refresh = root.select_one('meta[http-equiv="refresh"]')["content"].split("url=", 1)[1]
    canonical = [link["href"] for link in root.select('link[rel="canonical"]')]
    assert refresh == "ja/index.html" and canonical == [refresh], (refresh, canonical)
    for tag, url in refs(offline_zip.read("site-offline/index.html").decode("utf-8")):
        assert normpath(f"site-offline/{url}") in names, f"the offline root index.html: <{tag}> {url}"
    for lang in LANGS:
        online = [url for url in pages(deployment / "site" / lang) if url != "404.html"]
        missing = [url for url in online if offline_page(names, lang, url) is None]
        assert not missing, f"{lang}: {len(missing)} of {len(online)} pages of the site are not in the zip: {missing[:10]}"


def test_nothing_in_the_offline_zip_leaves_the_edition(offline_zip):
    address = urlsplit(SITE_URL).netloc
    pages_seen = 0
    for name in offline_zip.namelist():
        if not name.endswith(TEXT_SUFFIXES):
            continue
        text = offline_zip.read(name).decode("utf-8", errors="replace")
        assert address not in text, f"{name} names the deployed site ({address}), built with SITE_URL={SITE_URL}"
        if name.endswith(".css"):
            remote = re.findall(r"(?:url\(\s*['\"]?|@import\s+['\"])((?:https?:)?//[^'\")\s]+)", text)
            assert not remote, f"{name} loads from another host: {remote[:5]}"
        if not name.endswith(".html"):
            continue
        pages_seen += 1
        folder = PurePosixPath(name).parent
        for tag, url in refs(text):
            parts = urlsplit(url)
            if parts.scheme in ("http", "https") or url.startswith("//"):
                # a link in prose to other documentation is fine; what a page loads is not
                assert tag not in ASSET_TAGS, f"{name}: <{tag}> {url}: from another host, which needs a network"
                continue
            if parts.scheme or not parts.path:
                continue  # mailto:, data:, #fragment
            if parts.path.startswith("/") and name.endswith("/404.html"):
                continue  # the 404 page is never shown from files (docs/hooks/alternates.py)
            target = normpath(str(folder / parts.path)) if not parts.path.startswith("/") else parts.path
            assert target.startswith("site-offline/"), f"{name}: {url} leads out of the edition ({target})"
    assert pages_seen > 2 * 60, pages_seen

