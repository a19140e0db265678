"""What readers install to run the examples (hook; both language builds).

The examples import ``reference_impl`` and ``benchmarks`` (and readers run
``python -m benchmarks``), which are on no package index. So each build publishes,
in both languages:

* ``downloads/reference_impl-<version>-py3-none-any.whl``: the wheel of this
  repository's package (project ``reference-impl``, packages ``reference_impl`` and
  ``benchmarks``), built from the same sources as the site with
  ``pip wheel --no-deps --no-build-isolation`` in a scratch copy (the working tree is
  left alone) and cached in ``.cache/reader-wheel/<hash of the package sources>``;
* ``downloads/pytorch-precision-guide-<version>-src.tar.gz``: the repository's files at
  that version (``git ls-files``: tracked, plus new files git does not ignore).

Pages name them through placeholders, replaced here, so that the version is written in
one place (``pyproject.toml``): ``{{ reader.wheel }}``, ``{{ reader.source }}``,
``{{ reader.version }}``, ``{{ reader.torch }}`` (the torch pin of constraints.txt).

Every page whose code imports ``reference_impl`` or ``benchmarks`` (a python block,
an included snippet, a notebook cell) or runs ``python -m benchmarks`` gets a note at
the top with the download link and the install command (class ``reader-package``), or
where an earlier hook marked its place (``data-reader-package-note``: the support matrix puts it
below its tables, so that a phone's first screen is the matrix),
like the pages' notes on optional packages. Checked by tests/test_site_reader.py.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from _common import REPO, edited, label, lang, page_tree, soup
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

DOWNLOADS = "downloads"
SOURCE_NAME = "pytorch-precision-guide"
INSTALL_PAGE = "guide/install.md"
INSTALL_ANCHOR = "reference-impl"
PACKAGE_FILES = ("pyproject.toml", "LICENSE")  # the package's README is reference_impl/README.md
PACKAGE_DIRS = ("reference_impl", "benchmarks")
PLACEHOLDER = re.compile(r"\{\{\s*reader\.(?P<name>\w+)\s*\}\}")
USES_PACKAGE = re.compile(r"^\s*(?:from|import)\s+(?:reference_impl|benchmarks)\b|python3? -m benchmarks\b", re.M)

NOTE_TITLE = {"ja": "reference_impl パッケージが必要です", "en": "Needs the reference_impl package"}
NOTE_TEXT = {
    "ja": (
        "このページのコードは、このサイトの参照実装パッケージ reference_impl(と benchmarks)を使います。"
        "{wheel_link} と constraints.txt をダウンロードし、torch {torch} を入れたあとで "
        '<code>pip install "./{wheel}[examples]" -c constraints.txt</code> でインストールしてください({install_link})。'
    ),
    "en": (
        "The code on this page uses the site's reference_impl package (with benchmarks): download "
        "{wheel_link} and constraints.txt and, after torch {torch}, install it with "
        '<code>pip install "./{wheel}[examples]" -c constraints.txt</code> (see {install_link}).'
    ),
}
INSTALL_LINK_TEXT = {"ja": "インストールの手順", "en": "Install"}
# The head of the constraints.txt readers download: what it is and how to use it, in the page's
# language; the repository's own comments (notes for the project's setup) are left out (issue 42).
READER_CONSTRAINTS_HEAD = {
    "ja": (
        "# このサイトの例題をテストしたときの、パッケージのバージョンです。\n"
        "# torch {torch} を入れたあとで、reference_impl の wheel と同じフォルダで次のように使います。\n"
        '#   pip install "./{wheel}[examples]" -c constraints.txt\n'
        "# インストールするパッケージのうち、ここにあるものはこのバージョンになります(ここにあるだけではインストールされません)。\n"
    ),
    "en": (
        "# The package versions this site's examples were tested with.\n"
        "# After installing torch {torch}, use it in the folder of the reference_impl wheel:\n"
        '#   pip install "./{wheel}[examples]" -c constraints.txt\n'
        "# A package listed here gets this version when it is installed; being listed installs nothing.\n"
    ),
}

_published: dict[str, dict[str, str]] = {}  # site_dir -> placeholder values


def _git_files() -> list[str]:
    """The repository's files as a clone would have them, plus new files git does not ignore."""
    try:
        proc = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO, capture_output=True, check=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise PluginError(f"cannot list the repository's files with git: {exc}") from exc
    names = sorted({n for n in proc.stdout.decode().split("\0") if n})
    return [n for n in names if (REPO / n).is_file()]


def _package_files(all_files: list[str]) -> list[str]:
    return [n for n in all_files if n in PACKAGE_FILES or n.split("/", 1)[0] in PACKAGE_DIRS]


def _hash(names: list[str]) -> str:
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + (REPO / name).read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def build_wheel(package_files: list[str]) -> Path:
    """The wheel of the package sources, built once per content (cached)."""
    cache = REPO / ".cache" / "reader-wheel" / _hash(package_files)
    wheels = sorted(cache.glob("*.whl"))
    if wheels:
        return wheels[0]
    with tempfile.TemporaryDirectory(prefix="reader-wheel-") as tmp:
        src = Path(tmp) / "src"
        for name in package_files:
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, src / name)
        out = Path(tmp) / "dist"
        env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(out), str(src)],
            capture_output=True, text=True, env=env,
        )
        built = sorted(out.glob("*.whl"))
        if proc.returncode != 0 or len(built) != 1:
            raise PluginError(f"building the reader wheel failed:\n{proc.stdout}\n{proc.stderr}")
        cache.mkdir(parents=True, exist_ok=True)
        partial = cache / f"{built[0].name}.{os.getpid()}.part"  # both languages may build at once
        shutil.copyfile(built[0], partial)
        os.replace(partial, cache / built[0].name)  # atomic: a concurrent build sees all of it or nothing
        return cache / built[0].name


def build_source_archive(all_files: list[str], version: str) -> Path:
    """A reproducible ``.tar.gz`` of the repository's files under ``<name>-<version>/`` (cached)."""
    prefix = f"{SOURCE_NAME}-{version}"
    dest = REPO / ".cache" / "reader-source" / _hash(all_files)
    path = dest / f"{prefix}-src.tar.gz"
    if path.is_file():
        return path
    dest.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in all_files:
            data = (REPO / name).read_bytes()
            info = tarfile.TarInfo(f"{prefix}/{name}")
            info.size = len(data)
            info.mode = 0o755 if os.access(REPO / name, os.X_OK) else 0o644
            tar.addfile(info, io.BytesIO(data))
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")  # both languages may build at once
    with open(partial, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(buffer.getvalue())
    os.replace(partial, path)
    return path


def _torch_pin() -> str:
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^torch==(\S+)", line.strip())
        if m:
            return m.group(1)
    raise PluginError("constraints.txt pins no torch version")


def on_files(files, config, **kwargs):
    all_files = _git_files()
    wheel = build_wheel(_package_files(all_files))
    version = wheel.name.split("-")[1]
    source = build_source_archive(all_files, version)
    for path in (wheel, source):
        files.append(File.generated(config, f"{DOWNLOADS}/{path.name}", abs_src_path=str(path)))
    # constraints.txt: the versions the examples were tested with, for readers who want exactly those
    files.append(File.generated(config, f"{DOWNLOADS}/constraints.txt",
                                content=reader_constraints(lang(config), wheel.name, _torch_pin())))
    _published[config["site_dir"]] = {
        "wheel": wheel.name, "source": source.name, "version": version, "torch": _torch_pin(),
    }
    return files


def reader_constraints(language: str, wheel: str, torch: str) -> str:
    """The repository's constraints.txt as readers download it: the pins, under a head that says
    in the reader's language what they are and how to use them, without the project's own notes."""
    pins = [line for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]
    return READER_CONSTRAINTS_HEAD[language].format(wheel=wheel, torch=torch) + "\n".join(pins) + "\n"


def substitute(markdown: str, values: dict[str, str], where: str) -> str:
    def replace(m):
        if m["name"] not in values:
            raise PluginError(f"{where}: unknown placeholder {m[0]} (known: {', '.join(sorted(values))})")
        return values[m["name"]]

    return PLACEHOLDER.sub(replace, markdown)


def on_page_markdown(markdown, page, config, files, **kwargs):
    return substitute(markdown, _published[config["site_dir"]], page.file.src_uri)


def page_uses_package(tree) -> bool:
    """Whether a page's code (python and console blocks, notebook cells) needs the package."""
    for pre in tree.find_all("pre"):  # "div.highlight pre, .highlight-ipynb pre, .jp-InputArea pre"
        if any(_holds_code(parent) for parent in pre.parents) and USES_PACKAGE.search(pre.get_text()):
            return True
    return False


def _holds_code(tag) -> bool:
    classes = tag.get("class") or ()
    return (tag.name == "div" and "highlight" in classes) or "highlight-ipynb" in classes or "jp-InputArea" in classes


def _note(tree, page, config, files):
    values = _published[config["site_dir"]]
    here = page.file
    wheel_file = files.get_file_from_path(f"{DOWNLOADS}/{values['wheel']}")
    install = files.get_file_from_path(INSTALL_PAGE)
    if wheel_file is None or install is None:
        raise PluginError(f"{page.file.src_uri}: the wheel or {INSTALL_PAGE} is not part of the site")
    wheel_href = wheel_file.url_relative_to(here)
    install_href = install.url_relative_to(here) + f"#{INSTALL_ANCHOR}"
    # The same note on many pages: left out of the search index (Material's data-search-exclude).
    note = tree.new_tag("div", attrs={"class": "admonition note reader-package", "data-search-exclude": ""})
    title = tree.new_tag("p", attrs={"class": "admonition-title"})
    title.string = label(NOTE_TITLE, config)
    body = soup(
        "<p>"
        + label(
            NOTE_TEXT,
            config,
            wheel_link=f'<a href="{wheel_href}" download>{values["wheel"]}</a>',
            wheel=values["wheel"],
            torch=values["torch"],
            install_link=f'<a href="{install_href}">{label(INSTALL_LINK_TEXT, config)}</a>',
        )
        + "</p>"
    )
    note.append(title)
    note.append(body)
    return note


def on_page_content(html_content, page, config, files, **kwargs):
    tree = page_tree(html_content, page)  # parsed once for every hook (_common.py)
    if not page_uses_package(tree):
        return html_content
    note = _note(tree, page, config, files)
    heading = tree.find("h1")
    placed = tree.select_one("[data-reader-package-note]")  # a page's own place (support_matrix.py)
    if placed is not None:
        del placed["data-reader-package-note"]
        placed.insert_before(note)
    elif heading is not None:
        heading.insert_after(note)
    else:
        tree.insert(0, note)
    return edited(html_content, page)
