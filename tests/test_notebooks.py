"""Every notebook runs top to bottom with warnings as errors; a failing cell fails here.

Notebooks are committed without outputs: the site's outputs come from executing
them at build time (mkdocs-jupyter ``execute: true, allow_errors: false``), so
what a reader sees was produced by a real run. Both languages have identical
code cells (test_parity.py), so each notebook's code is executed once. In a run that also
pastes the notebook's page (tests/test_copy_paste.py: the same cells in the reader's Python,
warnings as errors, no stderr, outputs compared), that test checks it and this one is skipped
(tests/conftest.py ``_notebooks_run_pasted``); a narrowed run still executes it here.

A notebook that passed is not executed again while nothing it reads changes (README "What the
caches key on"): the notebook, ``reference_impl``, ``docs_tools`` (the warnings policy), this
file, the requirement lists, the installed distributions, the Python, the CPU class and the
variables that switch torch's kernels. Warm, that was 49 s of each run.
"""

from __future__ import annotations

import json

import nbformat
import pytest
from nbclient import NotebookClient

from docs_tools.docs_model import DOCS, REPO, page_files
from tests.support.shared_cache import inputs_key, passed_before, record_pass

NOTEBOOKS = [rel for rel in page_files("ja") if rel.endswith(".ipynb")]
# The variables that change which kernels torch runs (README "Machines"), so what a cell computes.
KERNEL_SWITCHES = ("ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "FBGEMM_ENABLE_INSTRUCTIONS",
                   "MKL_ENABLE_INSTRUCTIONS", "OMP_NUM_THREADS", "CUDA_VISIBLE_DEVICES")


def _policy_cell() -> str:
    """First cell: the same warnings policy as every other test (docs_tools/warning_policy.py)."""
    return (
        "import sys\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        "from docs_tools import warning_policy\n"
        "warning_policy.install()\n"
        "del sys.path[0]\n"
    )


@pytest.mark.parametrize("rel", NOTEBOOKS)
def test_notebook_executes(rel, tmp_path):
    import os

    key = inputs_key((f"docs/ja/{rel}", "reference_impl", "docs_tools", "tests/test_notebooks.py", "pyproject.toml",
                      "constraints.txt"), *(f"{k}={os.environ.get(k, '')}" for k in KERNEL_SWITCHES))
    if passed_before("notebooks", key):
        return
    nb = nbformat.read(DOCS / "ja" / rel, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(_policy_cell()))
    # Lift the policy after the last cell: ipykernel's own shutdown handler warns.
    nb.cells.append(nbformat.v4.new_code_cell("import warnings\nwarnings.resetwarnings()"))
    client = NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, on the first failing cell
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            assert output.get("name") != "stderr", f"{rel}: a cell wrote to stderr:\n{output.get('text')}"
    record_pass("notebooks", key)


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("rel", NOTEBOOKS)
def test_notebook_committed_without_outputs(rel, lang):
    cells = json.loads((DOCS / lang / rel).read_text(encoding="utf-8"))["cells"]
    stale = [i for i, c in enumerate(cells) if c["cell_type"] == "code" and (c.get("outputs") or c.get("execution_count"))]
    assert not stale, f"docs/{lang}/{rel}: cells {stale} carry stored outputs; clear them (the build executes the notebook)"
