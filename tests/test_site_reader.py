"""The built site from a reader's side: the package the examples import is offered for
download, pages that need it say so at the top, notebooks show their figures whatever
environment built them, and outputs are marked as outputs (docs/hooks/)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from docs_tools.docs_model import CONFIGS, REPO
from tests.support import site_html

pytestmark = [pytest.mark.site]

LANGS = tuple(CONFIGS)
USES_PACKAGE = re.compile(r"^\s*(?:from|import)\s+(?:reference_impl|benchmarks)\b|python3? -m benchmarks\b", re.M)
DRAWS = re.compile(r"\bplt\.|\.plot\(|imshow\(|savefig\(|\.show\(")
OUTPUT_LABEL = {"ja": "出力", "en": "Output"}


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


# A page's <article>, parsed alone and once per test process (four tests read every page of both languages).
_article = site_html.article


def _pages(site: Path, lang: str) -> list[Path]:
    return sorted(p for p in (site / lang).rglob("index.html") if p.parent != site / lang / "404")


def _version() -> str:
    import tomllib

    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_package_and_its_source_are_offered(built_site, lang):
    version = _version()
    wheel = built_site / lang / "downloads" / f"reference_impl-{version}-py3-none-any.whl"
    source = built_site / lang / "downloads" / f"pytorch-precision-guide-{version}-src.tar.gz"
    assert wheel.is_file() and source.is_file(), sorted(p.name for p in (built_site / lang / "downloads").iterdir())
    members = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in members}
    assert {"reference_impl", "benchmarks"} <= top, top
    # the benchmark's data travel with it: the peaks --device cuda divides by, the published results
    # --device cpu prints beside a reader's own (pyproject.toml's package-data)
    assert "benchmarks/gpu_peaks.toml" in members, "the wheel lacks benchmarks/gpu_peaks.toml"
    assert {"benchmarks/results/cpu/matmul.json", "benchmarks/results/cpu-avx2/matmul.json"} <= set(members)
    # the reader's constraints.txt: every pin of the repository's, under a head in the page's
    # language that says how to use it, and none of the project's own notes (issue 42)
    offered = (built_site / lang / "downloads" / "constraints.txt").read_text(encoding="utf-8").splitlines()
    ours = (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines()
    assert [line for line in offered if not line.startswith("#")] == [line for line in ours if line and not line.startswith("#")]
    head = [line for line in offered if line.startswith("#")]
    assert offered[: len(head)] == head and not set(head) & {line for line in ours if line.startswith("#")}, head
    assert any(f'pip install "./reference_impl-{version}-py3-none-any.whl[examples]" -c constraints.txt' in line for line in head), head
    assert any(("テスト" if lang == "ja" else "tested") in line for line in head), head
    with tarfile.open(source) as tar:
        names = tar.getnames()
    prefix = f"pytorch-precision-guide-{version}/"
    assert all(n.startswith(prefix) for n in names)
    assert {prefix + "pyproject.toml", prefix + "reference_impl/__init__.py", prefix + "mkdocs.yml"} <= set(names)
    assert not any(part in n.split("/") for n in names for part in (".venv", "site", ".cache", "node_modules"))
    # The install page gives the exact lines, with the version of the build.
    install = _soup(built_site / lang / "guide" / "install" / "index.html")
    text = install.select_one("article").get_text()
    assert f'pip install "./{wheel.name}[examples]"' in text
    assert "pip install torch==" in text
    assert "{{" not in text
    hrefs = [a["href"] for a in install.select("article a[href]")]
    assert f"../../downloads/{wheel.name}" in hrefs and f"../../downloads/{source.name}" in hrefs
    assert "../../downloads/constraints.txt" in hrefs


def _code_needs_package(article) -> bool:
    for pre in article.select("div.highlight pre, .jp-InputArea pre"):
        if USES_PACKAGE.search(pre.get_text()):
            return True
    return False


@pytest.mark.parametrize("lang", LANGS)
def test_pages_whose_code_needs_the_package_say_so_at_the_top(built_site, lang):
    wrong = []
    needing = 0
    for page in _pages(built_site, lang):
        article = _article(page)
        if article is None:
            continue
        notes = article.select(".admonition.reader-package")
        needs = _code_needs_package(article)
        needing += needs
        where = page.relative_to(built_site).as_posix()
        if needs != bool(notes) or len(notes) > 1:
            wrong.append(f"{where}: code needs the package: {needs}, notes: {len(notes)}")
            continue
        if not needs:
            continue
        note = notes[0]
        # At the top: nothing but the title (and a notebook's download link) comes before it.
        before = [el for el in note.find_previous_siblings() if el.name not in ("h1", "a") and "notebook-download" not in str(el)]
        if where.endswith("/support-matrix/index.html"):
            # below the matrix, before the section after its last table (docs/hooks/support_matrix.py):
            # a phone's first screen is the matrix, not the install note
            after = note.find_next_sibling()
            if note.find_next_sibling("div", class_="support-matrix") or not note.find_previous_sibling(
                    "div", class_="support-matrix") or after is None or after.name != "h2":
                wrong.append(f"{where}: the note is not between the matrix and the next section")
        elif before:
            wrong.append(f"{where}: the note is not at the top (after {[el.name for el in before]})")
        links = [a["href"] for a in note.select("a[href]")]
        wheel = [h for h in links if h.endswith(".whl")]
        if not wheel or not (page.parent / wheel[0]).resolve().is_file():
            wrong.append(f"{where}: the note's wheel link {wheel} is not served")
        install = built_site / lang / "guide" / "install"
        if not any(h.endswith("#reference-impl") and (page.parent / h.split("#")[0]).resolve() == install for h in links):
            wrong.append(f"{where}: the note does not link to the install section: {links}")
    assert not wrong, "\n".join(wrong)
    assert needing >= 10, needing  # 31 snippets import the package: the check must see them


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_cells_that_draw_show_their_figure(built_site, lang):
    missing, figures = [], 0
    for page in sorted((built_site / lang / "notebooks").glob("*/index.html")):
        for n, cell in enumerate(_article(page).select(".jp-CodeCell") if _article(page) else [], 1):
            code = cell.select_one(".jp-InputArea pre")
            if code is None or not DRAWS.search(code.get_text()):
                continue
            images = cell.select(".jp-OutputArea img")
            figures += len(images)
            if not images:
                missing.append(f"{page.parent.name} cell {n}")
    assert not missing, f"cells that draw but show no figure: {missing}"
    assert figures >= 4, figures


def test_notebooks_get_their_figures_when_the_caller_set_mplbackend_agg(tmp_path):
    """A build started from an environment with MPLBACKEND=Agg (the tests set it) and no
    notebook cache still gets the figures: the build does not depend on the caller."""
    notebook = "notebooks/half-vs-float.ipynb"
    docs = tmp_path / "docs"
    (docs / "notebooks").mkdir(parents=True)
    shutil.copy(REPO / "docs" / "en" / notebook, docs / notebook)
    for link in set(re.findall(r"\]\(([^)#\s]+\.md)", (docs / notebook).read_text(encoding="utf-8"))):
        target = (docs / "notebooks" / link).resolve()  # pages the notebook links to (the hook checks links)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("# Linked page\n", encoding="utf-8")
    config = {
        "site_name": "t",
        "docs_dir": str(docs),
        "site_dir": str(tmp_path / "site"),
        "theme": {"name": "material", "language": "en"},
        "plugins": [{"mkdocs-jupyter": {"execute": True, "cache_dir": str(tmp_path / "cache"), "include_requirejs": False}}],
        "hooks": [str(REPO / "docs" / "hooks" / "notebooks.py")],
    }
    (tmp_path / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    env = {**os.environ, "MPLBACKEND": "Agg"}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", str(tmp_path / "mkdocs.yml")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    html = (tmp_path / "site" / "notebooks" / "half-vs-float" / "index.html").read_text(encoding="utf-8")
    assert "<img" in html, "the notebook's figure is missing when MPLBACKEND=Agg is set"


@pytest.mark.parametrize("lang", LANGS)
def test_outputs_are_labelled_as_outputs(built_site, lang):
    """Every text block (a checked output) is a figure captioned Output / 出力, and no
    download link sits between code and its output."""
    outputs = 0
    wrong = []
    for page in _pages(built_site, lang):
        article = _article(page)
        if article is None:
            continue
        where = page.relative_to(built_site).as_posix()
        for block in article.select("div.language-text.highlight"):
            figure = block.parent
            caption = figure.find("figcaption", recursive=False) if figure.name == "figure" else None
            if caption is None or caption.get_text().strip() != OUTPUT_LABEL[lang]:
                wrong.append(f"{where}: an output without its caption")
            outputs += 1
        for link in article.select("p > a.snippet-download"):
            nxt = link.parent.find_next_sibling()
            if nxt is not None and nxt.name == "figure" and "code-output" in nxt.get("class", []):
                wrong.append(f"{where}: {link['href']} sits between code and its output")
    assert not wrong, "\n".join(wrong[:20])
    assert outputs >= 100, outputs


@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_has_a_caption_and_the_diagrams_exist(built_site, lang):
    """Every picture a page shows from figures/ (drawn by a snippet) sits in a numbered
    ``figure.site-figure`` with a caption and opens full size on click; the three diagrams drawn
    from code (the formats' bit layouts, one AMP step, the quantization workflows) are on their pages."""
    problems, seen = [], set()
    for page in sorted((built_site / lang).rglob("index.html")):
        article = _article(page)
        if article is None:
            continue
        for img in article.select('img[src*="figures/"]'):
            src = img["src"]
            seen.add(src.rsplit("/", 1)[-1])
            figure = img.find_parent("figure")
            where = f"{page.relative_to(built_site)}: {src}"
            if figure is None or "site-figure" not in figure.get("class", []):
                problems.append(f"{where} is not in a figure.site-figure")
                continue
            caption = figure.find("figcaption")
            if caption is None or not caption.get_text(strip=True):
                problems.append(f"{where} has no caption")
            if img.find_parent("a") is None or img.find_parent("a").get("href") != src:
                problems.append(f"{where} does not open full size on click")
            if not img.get("alt"):
                problems.append(f"{where} has no alt text")
    assert not problems, "\n".join(problems)
    assert {"bit_layouts.svg", "amp_step.svg", "quantization_workflows.svg"} <= seen, sorted(seen)
