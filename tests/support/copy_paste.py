"""What a reader gets from the copy buttons of the built site, and running it as they would.

Material's copy button copies ``code.innerText`` of a code block with its annotations hidden
(``.md-annotation``, from ``# (1)!`` comments) and trailing whitespace trimmed
(``hs()`` in Material's bundle). :func:`copied_text` does the same on the built HTML;
tests/test_site.py checks it against the real clipboard in Chromium.

A page's Python blocks are matched, in order, with the ``python`` fences of its Markdown
source and the included snippets' sidecars (``snippets/<dir>/<name>.test.toml``, read with
:func:`docs_tools.snippets.snippet_meta`), which say what the HTML cannot: a GPU-only block
(``<!--pytest.mark.cuda-->``, or ``requires = ["cuda"]``), an optional package
(``<!--pytest-codeblocks:importorskip(mod)-->``, ``requires-module = ["mod"]``; skipped when the
reader venv lacks it), the stderr lines it may print, its timeout, the ``[[tolerance]]`` rules
of its output, whether the text block after it is checked output. A fence titled with a file name
(```` ```python title="ddp_spawn.py" ````) is a "save as a file" example: the reader saves it
under that name and runs ``python ddp_spawn.py``, and so does the test.

Notebook pages: the code cells in order, as the notebook's own copy buttons give them
(mkdocs-jupyter's ``<clipboard-copy for="cell-N">``).

:func:`problems` compares what each block printed with the output shown under it using
:func:`docs_tools.outputs.compare_outputs` (text exactly, each number exactly unless one of the
snippet's ``[[tolerance]]`` rules covers it), the same comparison as test_snippets.py.

The reader's Python (:class:`ReaderVenv`). The blocks do not run in the project's ``.venv``
(editable install, test tools, ``MPLBACKEND``) but in a virtualenv that holds what a reader
installs: the pinned torch, then the packages the pages name (the project's dependencies and its
``examples`` extra, under constraints.txt), and the wheel the built site offers
(``site/<lang>/downloads/reference_impl-<version>-py3-none-any.whl``), installed from the site
at the start of each run. Building it takes minutes, so it is cached outside the clone, in
``${XDG_CACHE_HOME:-~/.cache}/pytorch-precision-guide/reader-<key>``, the key a hash of
constraints.txt, those requirement lists and the Python version: every clone on the machine
shares it, ``.ci/setup`` creates it (``python -m tests.support.copy_paste ensure-reader-venv``),
and a change of any of them makes a new one. The wheel is reinstalled only when its files
differ from the installed ones; a run holds a shared lock on the venv while it uses it, and a
reinstall waits for the exclusive lock, so two clones testing different sources at the same time
take turns instead of swapping the package under each other's feet.

Each page runs in an empty folder holding only the page's downloads (``data-save-as``), with
the reader venv's ``python`` (``-c`` with the text of paste_driver.py: nothing imported from the
repository), in an environment without the variables the pages never ask a reader to set
(:func:`reader_env`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import tokenize
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from functools import cache, lru_cache
from pathlib import Path, PurePosixPath

from docs_tools import warning_policy
from docs_tools.localize import code_tokens
from docs_tools.outputs import Rule, compare_outputs, normalize_output
from docs_tools.snippets import expected_output_file, snippet_meta, tolerance_rules
from tests.support.docs_model import LANGS, REPO, parse_markdown
from tests.support.paste_driver import MARKER

ANNOTATION_COMMENT = re.compile(r"[ \t]*#\s*\(\d+\)!?[ \t]*$", re.M)
CUDA_MARKERS = ("pytest.mark.cuda",)
IMPORTORSKIP = re.compile(r"^pytest-codeblocks:importorskip\((?P<mod>\w+)\)$")
FENCE_TITLE = re.compile(r'\btitle="(?P<title>[^"]+)"')
SKIPIF = re.compile(r"^pytest\.mark\.skipif\((?P<cond>.*),\s*reason=(?P<reason>.*)\)$")


@dataclass
class Block:
    index: int  # 1-based, among the page's Python blocks
    kind: str  # "paste" or "file"
    code: str  # exactly what the copy button gives
    title: str | None = None
    expected: str | None = None  # the checked output shown right after it, if any
    ignore_whitespace: bool = False
    skip: str | None = None  # reason, when not run on this machine
    timeout: int = 300
    allow_stderr: list[str] = field(default_factory=list)
    tolerance: list[Rule] = field(default_factory=list)  # the snippet's [[tolerance]] rules (README "Printed numbers")
    origin: str = ""  # "docs/en/x.md:12" or "snippets/a/b.py"


def copied_text(code_el) -> str:
    """The text Material's copy button puts on the clipboard for a ``<code>`` element."""
    from copy import copy

    el = copy(code_el)
    for annotation in el.select(".md-annotation"):
        annotation.decompose()
    text = el.get_text()
    # Before Material's script runs, an annotation is still its "# (1)!" comment.
    text = ANNOTATION_COMMENT.sub("", text)
    return text.rstrip()


@lru_cache(maxsize=8)
def _soup(path: Path):
    from bs4 import BeautifulSoup

    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def page_html(site: Path, lang: str, rel: str) -> Path:
    stem = rel.rsplit(".", 1)[0]
    return site / lang / ("" if stem == "index" else stem.removesuffix("/index")) / "index.html"


def html_code_blocks(soup):
    """(code element, title or None) for every code block of the page's content, in order.

    pymdownx.highlight gives the blocks no language class, so the caller matches them
    with the page's Markdown fences, in order.
    """
    out = []
    for div in soup.select("article div.highlight"):
        title = div.select_one("span.filename")
        out.append((div.select_one("pre code"), title.get_text().strip() if title else None))
    return out


def _module_present_here(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def _has_cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def markdown_plan(site: Path, lang: str, rel: str,
                  has_module: Callable[[str], bool] = _module_present_here) -> list[Block]:
    """The page's Python blocks; ``has_module`` says whether the Python that runs them has a module."""
    md = parse_markdown((REPO / "docs" / lang / rel).read_text(encoding="utf-8"), lang, rel)
    lines = md.text.splitlines()
    html = html_code_blocks(_soup(page_html(site, lang, rel)))
    if len(html) != len(md.fences):
        raise AssertionError(
            f"docs/{lang}/{rel}: {len(md.fences)} fences in the Markdown but {len(html)} code blocks "
            "in the built page; cannot tell which is which"
        )
    all_fences = md.fences
    blocks = []
    for pos, (fence, (code_el, shown_title)) in enumerate(zip(all_fences, html)):
        if not (fence.info == "python" or fence.info.startswith("python ")):
            continue
        following = html[pos + 1][0] if pos + 1 < len(html) else None
        # "Save as name.py": the fence's title (a title bar the build adds elsewhere is not one).
        m = FENCE_TITLE.search(fence.info)
        title = m.group("title") if m else None
        if title and title != shown_title:
            raise AssertionError(f"docs/{lang}/{rel}:{fence.lineno}: the block titled {title!r} shows "
                                 f"{shown_title!r} as its title in the built page")
        block = Block(index=len(blocks) + 1, kind="file" if title else "paste", code=copied_text(code_el),
                      title=title, origin=f"docs/{lang}/{rel}:{fence.lineno}")
        include = fence.include
        meta = snippet_meta(include) if include else None  # its sidecar snippets/<dir>/<name>.test.toml
        if meta is not None:
            block.origin = include
            block.timeout = meta.timeout
            block.allow_stderr = [a.pattern for a in meta.allow_stderr]
        # The checked output right after the block: an included .out, or an expected-output fence.
        nxt = all_fences[pos + 1] if pos + 1 < len(all_fences) else None
        if nxt is not None and nxt.info == "text" and following is not None:
            between = [ln.strip() for ln in lines[fence.lineno : nxt.lineno - 1] if ln.strip()]
            marker = between[-1] if between else ""
            checked = (include and nxt.include == include[:-3] + ".out") or marker.startswith(
                "<!--pytest-codeblocks:expected-output"
            )
            if checked:
                block.expected = following.get_text()
                if meta is not None:
                    # on a CPU class with its own recorded output (x.avx2.out), compare with that one
                    recorded = expected_output_file(REPO / include)
                    if recorded.name != PurePosixPath(include).with_suffix(".out").name:
                        block.expected = recorded.read_text(encoding="utf-8")
                    block.tolerance = tolerance_rules(meta)
                block.ignore_whitespace = "ignore-whitespace" in marker
        # Why this block may not run here.
        reasons = []
        if any(m in CUDA_MARKERS for m in fence.markers) or (meta is not None and "cuda" in meta.requires):
            if not _has_cuda():
                reasons.append("needs a CUDA GPU")
        modules = [IMPORTORSKIP.match(m).group("mod") for m in fence.markers if IMPORTORSKIP.match(m)]
        modules += list(meta.requires_module) if meta is not None else []
        for mod in dict.fromkeys(modules):
            if not has_module(mod):
                reasons.append(f"needs {mod} (optional, named on the page; not installed)")
        for m in fence.markers:
            s = SKIPIF.match(m)
            if s and eval(s.group("cond"), {"sys": sys}):  # noqa: S307 - our own page markers
                reasons.append(eval(s.group("reason")))  # noqa: S307
        block.skip = "; ".join(reasons) or None
        blocks.append(block)
    return blocks


def notebook_plan(site: Path, lang: str, rel: str) -> list[Block]:
    """A notebook's code cells as its copy buttons give them (mkdocs-jupyter's ``clipboard-copy``)."""
    soup = _soup(page_html(site, lang, rel))
    blocks = []
    for button in soup.select("article clipboard-copy[for]"):
        source = soup.find(id=button["for"])
        n = len(blocks) + 1
        blocks.append(Block(index=n, kind="paste", code=source.get_text(), origin=f"docs/{lang}/{rel} cell {n}"))
    return blocks


def page_plan(site: Path, lang: str, rel: str,
              has_module: Callable[[str], bool] = _module_present_here) -> list[Block]:
    if rel.endswith(".ipynb"):
        return notebook_plan(site, lang, rel)
    return markdown_plan(site, lang, rel, has_module)


def page_data_files(site: Path, lang: str, rel: str) -> dict[str, str]:
    """Files the page tells the reader to download and where to put them (``data-save-as``)."""
    html = page_html(site, lang, rel)
    files = {}
    for link in _soup(html).select("article a[data-save-as]"):
        target = (html.parent / link["href"]).resolve()
        if not target.is_file():
            raise AssertionError(f"docs/{lang}/{rel}: the download {link['href']} is not in the built site")
        files[link["data-save-as"]] = target.read_text(encoding="utf-8")
    return files


def _program(code: str):
    try:
        return code_tokens(code)
    except (SyntaxError, tokenize.TokenError):
        return code


def plan_key(blocks: list[Block], files: dict[str, str]) -> str:
    """What must be equal for two languages' pages to be run once: the blocks' code tokens
    (comments and docstrings are in the page's language), titles, outputs and skips."""
    return json.dumps([[(b.kind, b.title, _program(b.code), b.expected, b.skip) for b in blocks], files])


@dataclass
class Outcome:
    results: list[dict]
    stdout: dict[int, str]
    stderr: dict[int, str]
    returncode: int
    tail: str


def _split(text: str) -> dict[int, str]:
    parts: dict[int, str] = {}
    current = 0
    pattern = re.compile("^" + re.escape(MARKER).replace(r"\{index\}", r"(\d+)") + "$", re.M)
    pos = 0
    for m in pattern.finditer(text):
        parts[current] = parts.get(current, "") + text[pos : m.start()]
        current, pos = int(m.group(1)), m.end()
    parts[current] = parts.get(current, "") + text[pos:]
    return parts


DRIVER = Path(__file__).with_name("paste_driver.py")


def run_pasted(blocks: list[Block], workdir: Path, env: dict[str, str], timeout: int,
               files: dict[str, str] | None = None, python: str | Path | None = None) -> Outcome:
    """Run the blocks in one fresh interpreter in ``workdir``, after saving the page's downloads there.

    ``python`` is the reader venv's interpreter (:class:`ReaderVenv`); by default the one running
    this. The driver is handed over as text (``python -c``), so the interpreter imports nothing
    from the repository; the plan and its result live next to ``workdir``, not in it.
    """
    for name, text in (files or {}).items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(text, encoding="utf-8")
    plan = workdir.parent / f"{workdir.name}.plan.json"
    allowed = [{"prefix": e.prefix, "category": e.category} for e in warning_policy.ALLOWED]
    plan.write_text(json.dumps({"blocks": [asdict(b) for b in blocks], "warnings": allowed}), encoding="utf-8")
    if "PWD" in env:  # as a shell has it after `cd` into the folder
        env = {**{k: v for k, v in env.items() if k != "OLDPWD"}, "PWD": str(workdir)}
    try:
        proc = subprocess.run(
            [str(python or sys.executable), "-c", DRIVER.read_text(encoding="utf-8"), str(plan)],
            cwd=workdir, env=env, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired as err:
        out = err.stdout.decode() if isinstance(err.stdout, bytes) else (err.stdout or "")
        tail = err.stderr.decode() if isinstance(err.stderr, bytes) else (err.stderr or "")
        proc = subprocess.CompletedProcess(err.cmd, -9, out, tail + f"\n(still running after {timeout} s: stopped)")
    result_file = Path(str(plan) + ".result")
    results = json.loads(result_file.read_text(encoding="utf-8")) if result_file.exists() else []
    return Outcome(results, _split(proc.stdout), _split(proc.stderr), proc.returncode, proc.stderr[-3000:])


def problems(where: str, blocks: list[Block], outcome: Outcome) -> list[str]:
    """Everything a reader pasting these blocks would trip over, as messages."""
    by_index = {b.index: b for b in blocks}
    found = []
    done = {r["index"]: r for r in outcome.results}
    for r in outcome.results:
        if r["status"] == "failed":
            b = by_index[r["index"]]
            how = f"saved as {b.title} and run with `python {b.title}`" if b.kind == "file" else "pasted"
            found.append(f"{where}: block {b.index} ({b.origin}), {how}, raised:\n{r['error']}")
    if not found and len(done) < len(blocks):
        found.append(f"{where}: the interpreter died (exit {outcome.returncode}) after block "
                     f"{max(done, default=0)} of {len(blocks)}:\n{outcome.tail}")
    for index, text in outcome.stderr.items():
        b = by_index.get(index)
        if b is None or done.get(index, {}).get("status") != "ok":
            continue
        tolerated = [re.compile(p) for p in b.allow_stderr]
        stray = [ln for ln in text.splitlines() if ln.strip() and not any(p.search(ln) for p in tolerated)]
        if stray:
            found.append(f"{where}: block {index} ({b.origin}) wrote to stderr:\n" + "\n".join(stray))
    for b in blocks:
        if b.expected is None or done.get(b.index, {}).get("status") != "ok":
            continue
        shown = normalize_output(b.expected, b.ignore_whitespace)
        real = normalize_output(outcome.stdout.get(b.index, ""), b.ignore_whitespace)
        difference = None if shown == real else compare_outputs(shown, real, b.tolerance)
        if difference:
            found.append(f"{where}: block {b.index} ({b.origin}) printed something else than the output shown "
                         f"under it: {difference}\n--- shown\n{shown}\n"
                         f"--- printed when pasted after blocks 1-{b.index - 1}\n{real}")
    return found


# -- the reader's Python ---------------------------------------------------------------------

CACHE_NAME = "pytorch-precision-guide"
WHEEL_GLOB = "reference_impl-*-py3-none-any.whl"
# What a reader's shell does not have: set by the project's tools (.ci/test, pytest, its .venv),
# never by a page. A page that tells readers to set a variable gets it from the block itself.
NOT_A_READERS = re.compile(r"^(PYTHON\w*|PYTEST_\w+|VIRTUAL_ENV|MPLBACKEND|MPLCONFIGDIR|DISPLAY|WAYLAND_DISPLAY"
                           r"|FIGURE_LANG|COV_\w+|PIP_\w+)$")


def _requirement_name(req: str) -> str:
    return re.match(r"[A-Za-z0-9_.-]+", req).group(0).lower().replace("_", "-")


def reader_requirements() -> tuple[str, list[str]]:
    """(the torch pin, what the reader installs after it): the package's dependencies and its ``examples`` extra."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = re.findall(r"^torch==\S+", (REPO / "constraints.txt").read_text(encoding="utf-8"), re.M)
    if len(pins) != 1:
        raise AssertionError("constraints.txt must pin torch exactly once (torch==X.Y.Z)")
    rest = [r for r in project["dependencies"] + project["optional-dependencies"]["examples"]
            if _requirement_name(r) != "torch"]
    return pins[0], rest


def reader_venv_key() -> str:
    """Hash of what the reader venv is made of: constraints.txt, the requirement lists, the Python."""
    torch_pin, rest = reader_requirements()
    digest = hashlib.sha256()
    digest.update((REPO / "constraints.txt").read_bytes())
    digest.update(json.dumps([torch_pin, rest]).encode())
    digest.update(f"{sys.implementation.cache_tag} {platform.python_version()} {platform.machine()}".encode())
    return digest.hexdigest()[:16]


def cache_home() -> Path:
    """``${XDG_CACHE_HOME:-~/.cache}/pytorch-precision-guide``: what the clones on a machine share."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / CACHE_NAME


def reader_venv_path() -> Path:
    return cache_home() / f"reader-{reader_venv_key()}"


# The CPU features that change what torch computes on a CPU (which kernels it dispatches to).
CPU_FLAGS = ("amx_tile", "amx_bf16", "amx_int8", "avx512_fp16", "avx512_bf16", "avx512_vnni", "avx512f", "avx2")


@cache
def cpu_class() -> str:
    """The machine, the CPU features of ``CPU_FLAGS`` it has and the cores this process may use:
    results computed on one CPU class are kept for that class only."""
    flags: set[str] = set()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{platform.machine()} {' '.join(f for f in CPU_FLAGS if f in flags)} cores={cores}"


@contextlib.contextmanager
def flock(path: Path, mode: int = fcntl.LOCK_EX) -> Iterator[int]:
    """Hold ``fcntl.flock(mode)`` on ``path`` (created if missing) for the ``with`` block: the locks
    of the caches shared by clones (reader virtualenv, copy-paste passes, site builds)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, mode)
        yield fd
    finally:
        os.close(fd)


def _install_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}


def ensure_reader_venv(log: Callable[[str], None] = print) -> Path:
    """The cached reader venv, created first if needed (minutes, once per machine and key)."""
    venv = reader_venv_path()
    done = venv / ".complete"
    if done.is_file():
        done.touch()  # last used: _prune keeps recently used venvs
        return venv
    with flock(venv.with_name(venv.name + ".lock"), fcntl.LOCK_EX):
        if done.is_file():
            return venv
        if venv.exists():
            shutil.rmtree(venv)  # an interrupted creation
        torch_pin, rest = reader_requirements()
        start = time.monotonic()
        log(f"==> creating the reader virtualenv {venv} (torch, the examples' packages; once per machine)")
        pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-c", str(REPO / "constraints.txt")]
        # torch first and pinned, as the install page says: an unpinned torch pulls the CUDA build
        for command in ([sys.executable, "-m", "venv", str(venv)], [*pip, torch_pin], [*pip, *rest]):
            proc = subprocess.run(command, capture_output=True, text=True, env=_install_env())
            if proc.returncode != 0:
                raise SystemExit(f"creating the reader virtualenv failed: {' '.join(command)}\n{proc.stdout}{proc.stderr}")
        done.write_text(json.dumps({"torch": torch_pin, "packages": rest, "python": platform.python_version()}) + "\n")
        log(f"==> reader virtualenv ready in {time.monotonic() - start:.0f} s")
    _prune(venv)
    return venv


def _prune(keep: Path, days: int = 14) -> None:
    """Remove other reader venvs (older constraints) nobody used for ``days`` days."""
    for other in keep.parent.glob("reader-*"):
        if other == keep or not other.is_dir():
            continue
        done = other / ".complete"
        if done.is_file() and time.time() - done.stat().st_mtime > days * 86400:
            with contextlib.suppress(BlockingIOError), flock(other / ".in-use", fcntl.LOCK_EX | fcntl.LOCK_NB):
                shutil.rmtree(other, ignore_errors=True)


def site_wheel(site: Path) -> Path:
    """The wheel the built site offers readers, the same in both languages."""
    found = {lang: sorted((site / lang / "downloads").glob(WHEEL_GLOB)) for lang in LANGS}
    for lang, wheels in found.items():
        if len(wheels) != 1:
            raise AssertionError(
                f"the built site offers {len(wheels)} wheels at {lang}/downloads/{WHEEL_GLOB} "
                f"({[w.name for w in wheels]}); readers install exactly one (docs/hooks/reader_package.py)"
            )
    wheels = [found[lang][0] for lang in LANGS]
    if len({w.name for w in wheels}) != 1 or len({_wheel_content(w) for w in wheels}) != 1:
        raise AssertionError(f"the languages offer different wheels: {[str(w.relative_to(site)) for w in wheels]}")
    return wheels[0]


def _wheel_content(wheel: Path) -> str:
    """A hash of the files in a wheel (its RECORD lists each file's hash), not of the zip's timestamps."""
    with zipfile.ZipFile(wheel) as z:
        record = next(n for n in z.namelist() if n.endswith(".dist-info/RECORD"))
        return hashlib.sha256(z.read(record)).hexdigest()


@dataclass(frozen=True)
class ReaderVenv:
    """The reader venv with the site's wheel installed; hold :meth:`use` while running blocks in it."""

    path: Path

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"

    @contextlib.contextmanager
    def use(self, wheel: Path) -> Iterator[ReaderVenv]:
        """Install ``wheel`` unless the same files are installed, and keep it there while in use.

        Runs share the venv under a shared lock; a run that needs another wheel waits for the
        exclusive one (when no run uses the venv), installs, and goes on sharing.
        """
        want = _wheel_content(wheel)
        stamp = self.path / ".reader-wheel"
        lock = self.path / ".in-use"
        with flock(lock, fcntl.LOCK_SH) as fd:
            if not (stamp.is_file() and stamp.read_text().strip() == want):
                fcntl.flock(fd, fcntl.LOCK_UN)
                fcntl.flock(fd, fcntl.LOCK_EX)
                if not (stamp.is_file() and stamp.read_text().strip() == want):
                    stamp.unlink(missing_ok=True)
                    proc = subprocess.run(
                        [str(self.python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(wheel)],
                        capture_output=True, text=True, env=_install_env(),
                    )
                    if proc.returncode != 0:
                        raise AssertionError(f"pip install {wheel.name} into {self.path} failed:\n{proc.stdout}{proc.stderr}")
                    stamp.write_text(want + "\n")
                fcntl.flock(fd, fcntl.LOCK_SH)
            yield self

    @cache
    def has_module(self, name: str) -> bool:
        code = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({name!r}) is None)"
        return subprocess.run([str(self.python), "-c", code], cwd=self.path, env=reader_env(self)).returncode == 0


def reader_env(venv: ReaderVenv) -> dict[str, str]:
    """A reader's shell with the venv activated: no variable of the project's tools, the venv's bin first on PATH."""
    env = {k: v for k, v in os.environ.items() if not NOT_A_READERS.match(k)}
    tools = str(Path(sys.executable).parent)  # the project's .venv/bin
    path = [p for p in env.get("PATH", "").split(os.pathsep)
            if p and p != tools and not Path(p).is_relative_to(REPO)]
    env["PATH"] = os.pathsep.join([str(venv.path / "bin"), *path])
    env["VIRTUAL_ENV"] = str(venv.path)
    leaks = {k: v for k, v in env.items() if k not in ("PWD", "OLDPWD") and str(REPO) in v}
    if leaks:
        raise AssertionError(f"the reader's environment would point into the repository: {leaks}")
    return env


def skipped_blocks(where: str, blocks: list[Block], langs: list[str]) -> list[dict]:
    """The blocks not run, for the run's list of exceptions (one entry per block, counting each language)."""
    return [{"page": where, "block": b.index, "origin": b.origin, "reason": b.skip, "languages": len(langs)}
            for b in blocks if b.skip]


def skip_summary(records: list[dict]) -> str:
    """The skipped blocks by reason, with counts (each language's block counted once)."""
    by_reason: dict[str, list[dict]] = {}
    for r in records:
        by_reason.setdefault(r["reason"], []).append(r)
    total = sum(r["languages"] for r in records)
    lines = [f"copy-paste: {total} blocks not run in the reader venv (both languages counted):"]
    for reason, rs in sorted(by_reason.items(), key=lambda kv: -sum(r["languages"] for r in kv[1])):
        lines.append(f"  {sum(r['languages'] for r in rs):3d}  {reason}")
        lines += [f"         {r['page']} block {r['block']} ({r['origin']})" for r in rs]
    return "\n".join(lines)


# -- the pages' outcomes, kept while nothing that decides them changes ------------------------------

# What decides a run's outcome besides the page (README "What the caches key on"): the code that
# runs the blocks and judges what they printed.
RUNNER_FILES = ("tests/support/copy_paste.py", "tests/support/paste_driver.py", "docs_tools/outputs.py",
                "docs_tools/warning_policy.py")
# Variables of the reader's environment left out of the key: the shell changes them from one
# command to the next, and PWD is the page's own empty folder (a new one in every run).
SHELL_STATE = ("PWD", "OLDPWD", "SHLVL", "_")


@dataclass(frozen=True)
class RunContext:
    """Everything besides the page's blocks and downloads that decides whether a page passes."""

    wheel: str  # the hash of the files of the wheel the site offers (installed in the reader venv)
    venv: str  # the reader venv's key (constraints.txt, requirement lists, Python)
    packages: tuple[str, ...]  # what the reader venv holds (its *.dist-info), torch's version among them
    cpu: str  # cpu_class(): the CPU features that change what torch computes, and the cores
    env: tuple[tuple[str, str], ...]  # the environment the blocks run in, without SHELL_STATE
    runner: str  # the hash of RUNNER_FILES

    @property
    def torch(self) -> str:
        return next((p.removesuffix(".dist-info").split("-")[1] for p in self.packages if p.startswith("torch-")), "none")


def run_context(venv: ReaderVenv, wheel: Path, env: dict[str, str]) -> RunContext:
    site_packages = sorted(venv.path.glob("lib/python*/site-packages"))
    packages = tuple(sorted(d.name for sp in site_packages for d in sp.glob("*.dist-info")))
    runner = hashlib.sha256(b"".join((REPO / f).read_bytes() for f in RUNNER_FILES)).hexdigest()
    return RunContext(wheel=_wheel_content(wheel), venv=venv.path.name, packages=packages, cpu=cpu_class(),
                      env=tuple(sorted((k, v) for k, v in env.items() if k not in SHELL_STATE)), runner=runner)


def page_run_key(blocks: list[Block], files: dict[str, str], context: RunContext, timeout: int) -> str:
    """The hash of everything a page's run depends on: the blocks as copied (with their expected
    outputs, tolerance rules, allowed stderr, skips, titles, timeouts), the files saved beside them,
    the warnings policy and the context."""
    allowed = [{"prefix": e.prefix, "category": e.category} for e in warning_policy.ALLOWED]
    payload = {"blocks": [asdict(b) for b in blocks], "files": files, "warnings": allowed,
               "context": asdict(context), "timeout": timeout}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:32]


@dataclass
class PageCache:
    """The runs that passed, by :func:`page_run_key`, in ``<cache home>/copy-paste/`` (shared by the
    clones on the machine). A run that failed is not kept: it runs again every time."""

    root: Path = field(default_factory=lambda: cache_home() / "copy-paste")
    keep_days: int = 14

    def passed(self, key: str) -> bool:
        record = self.root / f"{key}.json"
        if not record.is_file():
            return False
        record.touch()  # last used
        return True

    def record_pass(self, key: str, info: dict) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        partial = self.root / f"{key}.{os.getpid()}.part"
        partial.write_text(json.dumps(info) + "\n", encoding="utf-8")
        os.replace(partial, self.root / f"{key}.json")

    def prune(self) -> None:
        """Forget the passes nobody looked up for ``keep_days`` days."""
        for record in self.root.glob("*.json"):
            with contextlib.suppress(OSError):
                if time.time() - record.stat().st_mtime > self.keep_days * 86400:
                    record.unlink()


def run_page(where: str, blocks: list[Block], files: dict[str, str], context: RunContext, env: dict[str, str],
             workdir: Path, timeout: int, python: str | Path | None, cache: PageCache | None,
             runner: Callable[..., Outcome] = run_pasted) -> tuple[list[str], bool]:
    """(the problems, whether it ran): a page whose key passed before is not run again.

    ``env`` is the environment the blocks run in, ``context.env`` the same without SHELL_STATE.
    """
    if tuple(sorted((k, v) for k, v in env.items() if k not in SHELL_STATE)) != context.env:
        raise AssertionError("the page would run in another environment than the one its key names")
    key = page_run_key(blocks, files, context, timeout)
    if cache is not None and cache.passed(key):
        return [], False
    outcome = runner(blocks, workdir, env, timeout, files, python=python)
    found = problems(where, blocks, outcome)
    if not found and cache is not None:
        cache.record_pass(key, {"page": where, "blocks": len(blocks), "torch": context.torch, "cpu": context.cpu,
                                "when": time.strftime("%Y-%m-%d %H:%M:%S")})
    return found, True

if __name__ == "__main__":
    if sys.argv[1:] != ["ensure-reader-venv"]:
        sys.exit("usage: python -m tests.support.copy_paste ensure-reader-venv")
    print(f"reader virtualenv: {ensure_reader_venv()}")
