"""Every page with Python code offers a notebook in both languages, and the notebooks run.

docs/hooks/page_notebooks.py writes ``<page folder>/<name>.ipynb`` for every Markdown page with a
python fence, from the plan the copy-paste test runs (tests/support/paste_plan.py). Two checks,
made so that no page's code runs twice in a whole run:

* :func:`test_notebook_is_the_copy_paste_plan` (every page, both languages, no code run): the page
  links its notebook under the title, out of the search index; the notebook is valid nbformat 4;
  its code cells are the copy-paste plan of the built page, byte for byte, in order (a block
  titled with a file name: ``%%writefile name.py`` with the copied text, then
  ``!{sys.executable} name.py``), and each cell's output is the output the page shows under the
  block, or none. So what tests/test_copy_paste.py runs pasted, in the reader virtualenv, and
  compares with the page is what the notebook holds.
* :func:`test_notebook_runs_in_a_jupyter_kernel` (``KERNEL_SAMPLE``: a few pages, one language
  each): the built notebook is executed by nbclient in a Jupyter kernel of the reader's Python
  (tests/support/notebook_kernel.py: the reader venv plus ipykernel), in a folder holding only the
  page's downloads, with the reader's environment; every cell must run, write nothing to stderr
  but what its snippet's sidecar allows, show no value the page does not print, and print the
  output the page shows, compared as the copy-paste test compares it (docs_tools.outputs, the
  snippet's ``[[tolerance]]`` rules). What a kernel changes (IPython's display of a cell's last
  value, ``%%writefile`` and ``!``, the inline matplotlib backend) is what this sample checks.
  The first of these, on every page: the copy-paste run (tests/support/paste_driver.py) evaluates a
  block's last expression as Jupyter does and fails a page whose notebook would display a value the
  page does not show (tests/support/copy_paste.py ``judge``).

Both keep their passes per page (``passes/page-notebooks/<key>``, ``passes/page-notebook-kernel/<key>``)
under everything they read, so a page is checked again only when its notebook, its built code
blocks or the checking code changed (README "What the caches key on").
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict
from pathlib import Path

import pytest

from docs_tools.docs_model import DOCS, LANGS, REPO
from docs_tools.outputs import compare_outputs, normalize_output
from tests.support import paste_plan
from tests.support.paste_plan import page_data_files, page_html, page_plan
from tests.support.shared_cache import passed_before, record_pass
from tests.test_copy_paste import _pages, reader  # noqa: F401 - the copy-paste test's reader virtualenv

pytestmark = [pytest.mark.site]

PAGES = [rel for rel in _pages() if rel.endswith(".md")]
# Pages run in a kernel, and the language each runs in: a file block with data the page links
# (nlp: %%writefile, a later cell imports the saved module, data-save-as), a file block that spawns
# worker processes (data), blocks that end in an expression and draw with matplotlib (half-vs-float).
# guide/saving.md: its last line was a bare torch.load(...), whose value Jupyter showed and the page did not
KERNEL_SAMPLE = {"guide/applied/nlp.md": "ja", "guide/data.md": "en", "storage/half-vs-float.md": "ja", "guide/saving.md": "en"}
THIS = Path(__file__)


def _article(html: str) -> str | None:
    """The page's ``<article>`` as text (what its plan and link are read from: the key, without a parse)."""
    start, end = html.find("<article"), html.find("</article>")
    return html[start:end] if 0 <= start < end else None


def notebook_name(rel: str) -> str:
    stem = rel.rsplit(".", 1)[0].removesuffix("/index")
    return stem.replace("/", "-") + ".ipynb"


def expected_cells(blocks: list[paste_plan.Block]) -> list[tuple[str, str | None, paste_plan.Block]]:
    """(source, output shown, block) of each code cell the plan makes."""
    cells = []
    for b in blocks:
        if b.kind == "file":
            cells.append((f"%%writefile {b.title}\n{b.code}", None, b))
            cells.append((f"import sys\n!{{sys.executable}} {b.title}", b.expected, b))
        else:
            cells.append((b.code, b.expected, b))
    return cells


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else value


def _stream(outputs: list[dict], name: str) -> str | None:
    parts = [_text(o["text"]) for o in outputs if o.get("output_type") == "stream" and o.get("name") == name]
    return "".join(parts) if parts else None


def _key(*parts) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


def _checker_files(*more: str) -> list[str]:
    """The code that plans and judges (and, for the kernel test, runs) the notebooks: part of the keys."""
    names = ["tests/support/paste_plan.py", "docs_tools/outputs.py", str(THIS.relative_to(REPO)), *more]
    return [(REPO / n).read_text(encoding="utf-8") for n in names]


@pytest.mark.parametrize("rel", PAGES)
def test_notebook_is_the_copy_paste_plan(rel, built_site):
    import nbformat

    found = []
    for lang in LANGS:
        html_path = page_html(built_site, lang, rel)
        notebook_path = html_path.parent / notebook_name(rel)
        if not notebook_path.is_file():
            found.append(f"docs/{lang}/{rel}: no notebook {notebook_path.relative_to(built_site)} in the built site")
            continue
        key = _key(lang, rel, _article(html_path.read_text(encoding="utf-8")), (DOCS / lang / rel).read_text(encoding="utf-8"),
                   notebook_path.read_text(encoding="utf-8"), _checker_files())
        if passed_before("page-notebooks", key):
            continue
        from tests.support import site_html

        link = site_html.article(html_path).select_one("a.page-notebook-download, .page-notebook-download a")
        if link is None or link.get("href") != notebook_name(rel) or link.get("download") is None:
            found.append(f"docs/{lang}/{rel}: no download link to {notebook_name(rel)} under the title ({link})")
        elif link.find_parent(attrs={"data-search-exclude": True}) is None:
            found.append(f"docs/{lang}/{rel}: the notebook link is in the search index (no data-search-exclude)")
        nb = nbformat.read(notebook_path, as_version=4)
        nbformat.validate(nb)
        code = [c for c in nb.cells if c.cell_type == "code"]
        want = expected_cells(page_plan(built_site, lang, rel, has_module=lambda name: True))
        got = [(c.source, _stream(c.outputs, "stdout")) for c in code]
        if len(got) != len(want):
            found.append(f"docs/{lang}/{rel}: {len(got)} code cells, the copy-paste plan makes {len(want)}")
        for n, ((source, shown), (want_source, want_shown, block)) in enumerate(zip(got, want), 1):
            if source != want_source:
                found.append(f"docs/{lang}/{rel}: code cell {n} is not block {block.index} as the copy button gives it "
                             f"({block.origin})")
            if (shown is None) != (want_shown is None) or (
                    shown is not None and normalize_output(shown) != normalize_output(want_shown)):
                found.append(f"docs/{lang}/{rel}: code cell {n} shows another output than the page under block "
                             f"{block.index}:\n{shown!r}\n{want_shown!r}")
            other = [o for o in code[n - 1].outputs if not (o.output_type == "stream" and o.name == "stdout")]
            if other or code[n - 1].execution_count is not None:
                found.append(f"docs/{lang}/{rel}: code cell {n} ships outputs or an execution count no run made")
        first = nb.cells[0] if nb.cells else None
        if first is None or first.cell_type != "markdown" or not first.source.startswith("# "):
            found.append(f"docs/{lang}/{rel}: the notebook does not open with the page's title")
        if not found:
            record_pass("page-notebooks", key)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("rel", sorted(KERNEL_SAMPLE))
def test_notebook_runs_in_a_jupyter_kernel(rel, built_site, reader, tmp_path):  # noqa: F811 - fixture
    from tests.support.notebook_kernel import kernel_packages, kernel_venv, run_notebook

    lang = KERNEL_SAMPLE[rel]
    venv, env, context = reader
    kernel = kernel_venv(venv)
    html_path = page_html(built_site, lang, rel)
    notebook = json.loads((html_path.parent / notebook_name(rel)).read_text(encoding="utf-8"))
    blocks = page_plan(built_site, lang, rel, venv.has_module)
    files = page_data_files(built_site, lang, rel)
    cells = expected_cells(blocks)
    key = _key(lang, rel, notebook, [asdict(b) for b in blocks], files, asdict(context), kernel_packages(kernel),
               _checker_files("tests/support/notebook_kernel.py", "tests/support/copy_paste.py"))
    if passed_before("page-notebook-kernel", key):
        return
    # The reader's notebook without the cells a reader skips here (a CUDA GPU, an optional package: the
    # copy-paste run skips the same blocks), and after each `!python name.py` a check of its exit
    # status (IPython keeps it in _exit_code; a failing command does not stop a notebook).
    code_cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert len(code_cells) == len(cells), "test_notebook_is_the_copy_paste_plan fails for this page"
    run = dict(notebook, cells=[])
    kept, checks = [], set()
    for cell, (source, shown, block) in zip(code_cells, cells):
        if block.skip:
            continue
        run["cells"].append(cell)
        kept.append((source, shown, block))
        if source.startswith("import sys\n!"):
            checks.add(len(run["cells"]))
            run["cells"].append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                                 "id": f"check-{len(run['cells'])}",
                                 "source": f"assert _exit_code == 0, f'python {block.title} exited with {{_exit_code}}'"})
    workdir = tmp_path / "page"
    workdir.mkdir()
    for name, text in files.items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(text, encoding="utf-8")
    env = {k: v for k, v in env.items() if k not in ("PWD", "OLDPWD")}
    timeout = 120 + max((b.timeout for b in blocks), default=0)
    try:
        outputs = run_notebook(run, kernel, workdir, env, timeout)
    except Exception as error:  # noqa: BLE001 - nbclient's CellExecutionError names the cell and traceback
        pytest.fail(f"docs/{lang}/{rel}: the notebook stopped in a Jupyter kernel:\n{error}", pytrace=False)
    outputs = [out for n, out in enumerate(outputs) if n not in checks]
    found = []
    for n, (out, (source, shown, block)) in enumerate(zip(outputs, kept), 1):
        where = f"docs/{lang}/{rel} cell {n} (block {block.index}, {block.origin})"
        stderr = _stream(out, "stderr") or ""
        allowed = [re.compile(p) for p in block.allow_stderr]
        stray = [ln for ln in stderr.splitlines() if ln.strip() and not any(p.search(ln) for p in allowed)]
        if stray:
            found.append(f"{where} wrote to stderr:\n" + "\n".join(stray))
        shown_values = [o for o in out if o["output_type"] == "execute_result"]
        if shown_values:
            found.append(f"{where}: the kernel shows the value of the cell's last line, which the page does not print: "
                         f"{_text(shown_values[0]['data'].get('text/plain', ''))[:200]}")
        if source.startswith("%%writefile"):
            continue
        if shown is not None:
            printed = normalize_output((_stream(out, "stdout") or "").replace("\r\n", "\n"))
            expected = normalize_output(shown)
            difference = None if printed == expected else compare_outputs(expected, printed, block.tolerance)
            if difference:
                found.append(f"{where} printed something else than the page shows: {difference}\n--- shown\n{expected}"
                             f"\n--- printed in the kernel\n{printed}")
    assert not found, "\n\n".join(found)
    record_pass("page-notebook-kernel", key)
