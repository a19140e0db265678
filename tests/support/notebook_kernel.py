"""The pages' notebooks run in a Jupyter kernel of the reader's Python (tests/test_page_notebooks.py).

A reader who opens a page's notebook has the reader virtualenv (tests/support/reader_venv.py) and
``ipykernel``, which Jupyter needs to run Python. The reader venv itself stays as it is (its
packages are in every copy-paste key: installing into it would run every page again); the kernel
runs in a small virtualenv beside it, ``<cache home>/reader-kernel-<reader venv>-<ipykernel>``, whose
``site-packages`` holds a ``.pth`` line naming the reader venv's ``site-packages`` and, installed
with pip after it (under constraints.txt, as the reader's packages), ``ipykernel`` at the version
the project's own environment has and ``ipywidgets`` (the kernel's side of ``pip install jupyter``),
and only what the reader venv lacks for them. Its Python sees exactly the reader venv's packages plus the kernel.

:func:`run_notebook` executes a notebook with nbclient in that kernel, in the page's folder, with
the reader's environment (reader_venv.reader_env), and returns each cell's outputs.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

from docs_tools.docs_model import REPO
from tests.support.reader_venv import ReaderVenv, _install_env
from tests.support.shared_cache import cache_home, flock

# What `pip install jupyter` adds on the kernel's side: the kernel, and ipywidgets, without which
# tqdm.auto (imported by transformers) warns "IProgress not found" on stderr in every notebook.
WIDGETS = "ipywidgets"


def kernel_requirements() -> list[str]:
    """ipykernel at the version the project's own environment has (the docs build runs it), ipywidgets."""
    return [f"ipykernel=={metadata.version('ipykernel')}", WIDGETS]


def _site_packages(venv: Path) -> Path:
    found = sorted(venv.glob("lib/python*/site-packages"))
    if len(found) != 1:
        raise AssertionError(f"{venv}: expected one site-packages folder, found {found}")
    return found[0]


def kernel_venv(reader: ReaderVenv) -> Path:
    """The reader venv plus ipykernel (see the module docstring); made once per reader venv and version."""
    requirements = kernel_requirements()
    tag = hashlib.sha256(json.dumps(requirements).encode()).hexdigest()[:8]
    venv = cache_home() / f"reader-kernel-{reader.path.name.removeprefix('reader-')}-{tag}"
    done = venv / ".complete"
    if done.is_file():
        return venv
    with flock(venv.with_name(venv.name + ".lock"), fcntl.LOCK_EX):
        if done.is_file():
            return venv
        shutil.rmtree(venv, ignore_errors=True)
        start = time.monotonic()
        base = json.loads(subprocess.run([str(reader.python), "-c", "import json, sys; print(json.dumps(sys._base_executable))"],
                                         capture_output=True, text=True, check=True).stdout)
        subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
        (_site_packages(venv) / "_reader_venv.pth").write_text(f"{_site_packages(reader.path)}\n", encoding="utf-8")
        # pip comes from the reader venv (through the .pth); it installs into this venv what the
        # reader venv lacks for ipykernel, and sees the reader venv's packages as installed.
        proc = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-c", str(REPO / "constraints.txt"),
                               *requirements],
                              capture_output=True, text=True, env=_install_env(), check=False)
        if proc.returncode != 0:
            shutil.rmtree(venv, ignore_errors=True)
            raise AssertionError(f"installing {requirements} beside the reader venv failed:\n{proc.stdout}{proc.stderr}")
        done.write_text(json.dumps({"reader": reader.path.name, "kernel": requirements,
                                    "seconds": round(time.monotonic() - start)}) + "\n")
    return venv


def kernel_packages(venv: Path) -> list[str]:
    """The distributions the kernel venv adds to the reader venv's (for the keys of the runs)."""
    return sorted(d.name for d in _site_packages(venv).glob("*.dist-info"))


def run_notebook(notebook: dict, venv: Path, workdir: Path, env: dict[str, str], timeout: int) -> list[list[dict]]:
    """Execute ``notebook`` in a kernel of ``venv``'s Python in ``workdir``; the outputs of each cell.

    A cell that raises stops the run (nbclient's CellExecutionError, as "Run All" stops).
    """
    import nbformat
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    nb = nbformat.reads(json.dumps(notebook), as_version=4)
    for cell in nb.cells:  # what the reader's run produces, not the outputs the notebook ships with
        if cell.cell_type == "code":
            cell.outputs = []
    with tempfile.TemporaryDirectory(prefix="reader-kernel-") as tmp:
        kernels = Path(tmp) / "kernels"
        (kernels / "reader").mkdir(parents=True)
        (kernels / "reader" / "kernel.json").write_text(json.dumps({
            "argv": [str(venv / "bin" / "python"), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "reader", "language": "python",
        }), encoding="utf-8")

        class ReaderKernelManager(AsyncKernelManager):
            """The kernel spec above; over IPC (files in the run's folder), not TCP: only this process
            talks to the kernel. nbclient makes it, so it also shuts the kernel down and closes its sockets."""

            def __init__(self, **kwargs):
                super().__init__(transport="ipc", connection_file=str(Path(tmp) / "connection.json"),
                                 kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]), **kwargs)

        # IPython's profile and history in the run's own folder, not the home's
        kernel_env = {**env, "IPYTHONDIR": str(Path(tmp) / "ipython"), "JUPYTER_RUNTIME_DIR": str(Path(tmp) / "runtime")}
        client = NotebookClient(nb, kernel_name="reader", kernel_manager_class=ReaderKernelManager, timeout=timeout,
                                allow_errors=False, record_timing=False, resources={"metadata": {"path": str(workdir)}})
        client.execute(env=kernel_env, cwd=str(workdir))
    return [list(cell.get("outputs", [])) for cell in nb.cells]


if __name__ == "__main__":  # python -m tests.support.notebook_kernel: make the kernel venv, say where
    from tests.support.reader_venv import reader_venv_path

    print(kernel_venv(ReaderVenv(reader_venv_path())))
    sys.exit(0)
