"""The offline edition as a download (hook; every build).

``bash .ci/offline`` builds the offline edition (both languages, search included, read
from the file system without a server) and zips it as ``site-offline.zip``.
``bash .ci/build`` (which ``.ci/serve`` runs) builds it first and then the site with
``OFFLINE_EDITION=site-offline.zip``: this hook publishes that file in each language at
``downloads/pytorch-precision-guide-<version>-offline.zip``, next to the reader wheel
(reader_package.py), and replaces ``{{ offline.download }}`` on the page that offers it
(the home page) by the link and the file's size.

Without ``OFFLINE_EDITION`` (the test suite's build, a plain ``mkdocs build`` or ``mkdocs
serve``) there is no such file, and the placeholder says how to build it instead: no link
on the site can point to a file that is not there. In the offline edition itself it says
that this is it. Checked by tests/test_site_findable.py.
"""

from __future__ import annotations

import os
import posixpath
import re
import tomllib
from pathlib import Path

from _common import REPO, is_offline, label
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

DOWNLOADS = "downloads"
NAME = "pytorch-precision-guide-{version}-offline.zip"
PLACEHOLDER = re.compile(r"\{\{\s*offline\.(?P<name>\w+)\s*\}\}")

TEXT = {
    "published": {
        "ja": "ダウンロード: [{name}]({href}){{ download=\"{name}\" }}({size})。このページと同じソースから作ったものです。",
        "en": "Download: [{name}]({href}){{ download=\"{name}\" }} ({size}), built from the same sources as the pages you are reading.",
    },
    "absent": {
        "ja": "このビルドのサイトには含まれていません。リポジトリのクローンで `bash .ci/offline` を実行すると `site-offline.zip` として作れます。",
        "en": "This build of the site does not include it: in a clone of the repository, `bash .ci/offline` builds it as `site-offline.zip`.",
    },
    "itself": {
        "ja": "このサイトがオフライン版です。",
        "en": "You are reading the offline edition.",
    },
}

_published: dict[str, str | None] = {}  # site_dir -> the download's name below downloads/, or None
_sizes: dict[str, str] = {}


def zip_path() -> Path | None:
    """The file named by ``OFFLINE_EDITION`` (relative to the repository), or None."""
    value = os.environ.get("OFFLINE_EDITION", "").strip()
    if not value:
        return None
    path = Path(value)
    path = path if path.is_absolute() else REPO / path
    if not path.is_file():
        raise PluginError(f"OFFLINE_EDITION={value}: no such file (bash .ci/offline builds site-offline.zip)")
    return path


def human_size(size: int) -> str:
    """``12.3 MB`` (decimal units), ``840 KB`` below one megabyte."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{max(1, round(size / 1000))} KB"


def download_name() -> str:
    version = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    return NAME.format(version=version)


def on_files(files, config, **kwargs):
    site = config["site_dir"]
    path = None if is_offline(config) else zip_path()  # the offline edition does not contain itself
    _published[site] = None
    if path is not None:
        name = download_name()
        files.append(File.generated(config, f"{DOWNLOADS}/{name}", abs_src_path=str(path)))
        _published[site] = name
        _sizes[site] = human_size(path.stat().st_size)
    return files


def on_page_markdown(markdown, page, config, files, **kwargs):
    site = config["site_dir"]

    def replace(m):
        if m["name"] != "download":
            raise PluginError(f"{page.file.src_uri}: unknown placeholder {m[0]} (known: offline.download)")
        name = _published.get(site)
        if is_offline(config):
            return label(TEXT["itself"], config)
        if name is None:
            return label(TEXT["absent"], config)
        href = posixpath.relpath(f"{DOWNLOADS}/{name}", posixpath.dirname(page.file.src_uri) or ".")
        return label(TEXT["published"], config, name=name, href=href, size=_sizes[site])

    return PLACEHOLDER.sub(replace, markdown)
