"""Every page works when a reader copies its blocks, in order, into one Python session.

From the built site (both languages, the ``built_site`` fixture), each page's Python blocks
are taken exactly as Material's copy button gives them (tests/support/paste_plan.py) and run in
order in ONE fresh interpreter per page, **as a reader runs them**:

* in the reader virtualenv (``reader`` fixture): the pinned torch, the packages the pages name
  (the ``examples`` extra) and the wheel the built site offers, installed from the site at the
  start of the run; no editable install, no test tools, nothing of the repository on ``sys.path``
  (cached outside the clone, created by ``.ci/setup``; see reader_venv.py);
* in an empty folder holding only what the page tells the reader to download;
* in ``__main__`` without ``__file__`` (``python -c`` with the driver's text), without
  ``MPLBACKEND``, ``PYTHONPATH``, ``PYTHONHASHSEED`` or ``PYTHONWARNINGS``: warnings are still
  errors (docs_tools/warning_policy.py), applied inside the interpreter.

A notebook page runs its code cells the same way. Three kinds of block are treated as the
page tells the reader to treat them:

* a block titled with a file name (```` ```python title="ddp_spawn.py" ````) is saved under
  that name and run as ``python ddp_spawn.py``, as the line above it tells the reader;
* a GPU-only block (in a CUDA tab, ``requires = ["cuda"]`` in its snippet's sidecar) is
  skipped without a GPU;
* a block that needs an optional package (named in an admonition above it) is skipped
  when that package is not in the reader virtualenv.

The skipped blocks and their reasons are listed, with counts, at the end of the run
(``pytest_terminal_summary`` in tests/conftest.py).

Each block must not raise, must not write to stderr, and must print the output shown right
under it on the page (an included ``.out`` or an expected-output block), when pasted after
all the blocks above it. A failure names the page, the block number and the error.
The two languages carry the same code (test_parity.py), with comments and docstrings in the
page's language (docs_tools.localize): when their block sequences are the same program token
for token the page runs once, in its Japanese version, and counts for both.

A page that passed is not run again while nothing that decides its outcome changed
(``page_cache``; the key, copy_paste.page_run_key: the blocks as copied with their expected
outputs and rules, the files saved beside them, the warnings policy, the wheel's files, the
reader venv's key and packages (torch's version among them), the CPU class, the environment
the blocks run in and the code that runs and judges them). A page that failed runs every time.
"""

from __future__ import annotations

import json

import pytest

from docs_tools.docs_model import DOCS, LANGS, page_files
from tests.support.copy_paste import PageCache, run_context, run_page
from tests.support.paste_plan import outputs_on_page, page_data_files, page_plan, plan_key, skipped_blocks
from tests.support.reader_venv import ReaderVenv, reader_env, reader_venv_path, site_wheel

# A site test: it needs the built site and the reader virtualenv (.ci/gpu leaves it out with -m "not site").
pytestmark = [pytest.mark.site]

SKIPPED_PROPERTY = "copy_paste_skipped"  # read by pytest_terminal_summary in tests/conftest.py


def _pages():
    pages = []
    for rel in sorted({rel for lang in LANGS for rel in page_files(lang)}):
        if rel.endswith(".ipynb") or any(
            "```python" in (DOCS / lang / rel).read_text(encoding="utf-8")
            for lang in LANGS
            if (DOCS / lang / rel).exists()
        ):
            pages.append(rel)
    return pages


@pytest.fixture(scope="session")
def reader(built_site):
    """The reader virtualenv with the built site's wheel installed (held for the whole run)."""
    venv = reader_venv_path()
    if not (venv / ".complete").is_file():
        pytest.fail(f"no reader virtualenv at {venv}: run `bash .ci/setup` (it creates it once per machine, "
                    "a few minutes), or `.venv/bin/python -m tests.support.copy_paste ensure-reader-venv`",
                    pytrace=False)
    (venv / ".complete").touch()
    try:
        wheel = site_wheel(built_site)
    except AssertionError as error:
        pytest.fail(f"the built site has no wheel for readers to install: {error}", pytrace=False)
    with ReaderVenv(venv).use(wheel) as ready:
        env = reader_env(ready)
        yield ready, env, run_context(ready, wheel, env)


@pytest.fixture(scope="session")
def page_cache():
    """The pages' passing runs, kept by everything that decides them (copy_paste.page_run_key), so
    that a page runs again only when one of those changed (README "What the caches key on")."""
    cache = PageCache()
    yield cache
    cache.prune()


@pytest.mark.parametrize("rel", _pages())
def test_page_pastes_cleanly(rel, built_site, reader, page_cache, tmp_path, record_property):
    venv, env, context = reader
    plans = {lang: page_plan(built_site, lang, rel, venv.has_module) for lang in LANGS}
    files = {lang: page_data_files(built_site, lang, rel) for lang in LANGS}
    runs = {}
    for lang, blocks in plans.items():
        runs.setdefault(plan_key(blocks, files[lang]), []).append(lang)
    found, skipped = [], []
    for langs in runs.values():
        blocks = plans[langs[0]]
        where = " and ".join(f"docs/{lang}/{rel}" for lang in langs)
        workdir = tmp_path / "-".join(langs)
        workdir.mkdir()
        timeout = 120 + sum(b.timeout for b in blocks if b.kind == "file") + 60 * len(blocks)
        found += run_page(where, blocks, files[langs[0]], context, env, workdir, timeout, venv.python, page_cache,
                          shown=outputs_on_page(langs[0], rel))[0]
        skipped += skipped_blocks(where, blocks, langs)
    record_property(SKIPPED_PROPERTY, json.dumps(skipped))
    assert not found, "\n\n".join(found)


def _downloads(built_site, lang, rel):
    from tests.support import site_html
    from tests.support.paste_plan import page_html

    article = site_html.article(page_html(built_site, lang, rel))
    page_dir = page_html(built_site, lang, rel).parent
    links = article.select("a.snippet-download, a.notebook-download") if article else []
    return [(a["href"], (page_dir / a["href"]).resolve()) for a in links]


def _as_shown(script, lang):
    """The script as the page of ``lang`` shows it: on the Japanese site with Japanese comments."""
    from docs_tools import localize

    source = script.read_text(encoding="utf-8")
    sidecar = localize.sidecar_path(script)
    if lang == "ja" and sidecar.exists():
        source = localize.localize(source, localize.load(sidecar))
    return source.encode("utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_every_snippet_and_notebook_can_be_downloaded(built_site, lang):
    """Under each included snippet a link to its .py (on the Japanese site, the script with its
    Japanese comments, as the page shows it); on each notebook page a link to its .ipynb."""
    from docs_tools.docs_model import REPO, page

    found = []
    for rel in page_files(lang):
        links = _downloads(built_site, lang, rel)
        if rel.endswith(".ipynb"):
            expected = [(DOCS / lang / rel).read_bytes()]
        else:
            fences = page(lang, rel).fences
            expected = [_as_shown(REPO / f.include, lang) for f in fences
                        if f.include and f.include.endswith(".py") and f.info.startswith("python")]
        served = [target.read_bytes() if target.is_file() else f"missing: {href}".encode() for href, target in links]
        if served != expected:
            found.append(f"docs/{lang}/{rel}: {len(expected)} files to offer, links give "
                         f"{[href for href, _ in links]}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGS)
def test_downloaded_diagram_scripts_run_for_readers(built_site, reader, tmp_path, lang):
    """The diagrams are offered for download under their figures (snippets/diagrams/, the Japanese
    site's with Japanese comments): downloaded and run alone in the reader virtualenv, as the script
    says (``FIGURE_LANG=ja`` for Japanese labels), each saves its picture and writes no warning."""
    import shutil
    import subprocess

    import hashlib
    import json
    from dataclasses import asdict

    from tests.support.shared_cache import passed_before, record_pass

    scripts = sorted((built_site / lang / "snippets" / "diagrams").glob("*.py"))
    assert len(scripts) >= 3, scripts
    venv, env, context = reader
    env = dict(env)
    if lang == "ja":
        env["FIGURE_LANG"] = "ja"
    # Kept, as a page's run is, while the scripts as served and the reader's context (its venv and
    # packages, the site's wheel, the CPU class, the environment) stay the same: 18 s of each run.
    key = hashlib.sha256(json.dumps([lang, [(s.name, s.read_text(encoding="utf-8")) for s in scripts],
                                     asdict(context)], sort_keys=True, default=str).encode()).hexdigest()[:32]
    if passed_before("diagram-downloads", key):
        return
    for script in scripts:
        work = tmp_path / script.stem
        work.mkdir()
        shutil.copy(script, work / script.name)
        proc = subprocess.run([str(venv.python), "-W", "error", script.name], cwd=work, env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and not proc.stderr, f"{lang}/{script.name}:\n{proc.stderr}"
        assert (work / f"{script.stem}.svg").is_file(), f"{lang}/{script.name} saved no {script.stem}.svg"
    record_pass("diagram-downloads", key)
