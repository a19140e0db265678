"""How the tests run a snippet (its sidecar ``name.test.toml``), and the environment it runs in.

Readers copy ``snippets/<topic>/<name>.py``; everything only the tests and the site build need
to know about it lives next to it in ``snippets/<topic>/<name>.test.toml``, never in the code.
A snippet without a sidecar runs with the defaults (no requirement, 300 s, nothing on stderr,
no figure, every number exact). The format (every key optional; parsed with :mod:`tomllib`)::

    # How the tests run plot_step.py. Never shown to readers.
    requires = ["cuda"]                 # needs a CUDA GPU: skipped with a reason without one
    requires-module = ["onnxruntime"]   # skipped when not installed (the page names the package)
    timeout = 180                       # seconds for one run (default 300)
    figure = ["step.svg"]               # pictures the script saves in its working folder; the
                                        # site build publishes them at figures/<topic>/step.svg
    [[allow-stderr]]                    # a stderr line the run may print (anything else fails)
    pattern = '^Failed to load .*torchao/_C_'   # regex searched in each stderr line
    why = "torchao 0.18 prints this when its C++ ops do not match the installed torch"
    [[tolerance]]                       # a printed number that may move (docs_tools.outputs)
    line = '^Adam\\s'                   # regex searched in each line of the SHOWN output
    number = 3                          # optional: only the 3rd number of that line (1-based)
    abs = 0.01                          # and/or rel: |real - shown| <= abs + rel * |shown|
    why = "observed: 0.962 (AMX), 0.964 (AVX-512), 0.965 (AVX2)"

An unknown key, a wrong type, an ``[[allow-stderr]]`` or ``[[tolerance]]`` without its ``why``
raise :class:`SnippetMetaError`; ``tests/test_snippets.py`` also fails a sidecar without its
``.py`` and a harness-looking comment (``# requires:`` ...) left in a snippet (:func:`sidecar_problems`).

Where a result really differs by kind of CPU (int8 arithmetic without VNNI), the snippet has a
second recorded output, ``name.avx2.out``, recorded with an AVX2-only CPU's kernels
(``bash .ci/test-avx2 tests/test_snippets.py -k name --update-outputs``); the page shows both,
and the test compares with the one for the CPU it runs on (:func:`expected_output_file`).

Used by the tests and by the docs build (figures), so it imports nothing beyond the standard
library and :mod:`docs_tools`.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from docs_tools import warning_policy
from docs_tools.outputs import Rule

__all__ = [
    "CUDA_CODE", "REPO", "SNIPPETS", "AllowStderr", "SnippetMeta", "SnippetMetaError", "expected_output_file",
    "figure_names", "machine_class", "sidecar_path", "sidecar_problems", "skip_reason", "snippet_env",
    "snippet_meta", "tolerance_rules",
]

REPO = Path(__file__).resolve().parents[1]
SNIPPETS = REPO / "snippets"
SIDECAR_SUFFIX = ".test.toml"
DEFAULT_TIMEOUT = 300
KNOWN_REQUIREMENTS = {"cuda": "needs a CUDA GPU"}
# A comment in a snippet that looks like test metadata (it belongs in the sidecar).
HARNESS_COMMENT = re.compile(
    r"^\s*#\s*(requires|requires-module|timeout|allow-stderr|figure|output-tolerance|tolerance)\s*:", re.M
)


# What "code that uses CUDA" looks like: a CUDA marker or ``requires = ["cuda"]`` on code without
# any of these would switch a CPU block off for good (issue 22).
CUDA_CODE = re.compile(r"""["']cuda["']|\.cuda\(|torch\.cuda|device=["']cuda""")


class SnippetMetaError(ValueError):
    """A sidecar ``name.test.toml`` that does not follow the format (the message says what to fix)."""


@dataclass(frozen=True)
class AllowStderr:
    """A stderr line a snippet's run may print: ``pattern`` is searched in each line; ``why`` says who prints it."""

    pattern: str
    why: str

    def matches(self, line: str) -> bool:
        return re.search(self.pattern, line) is not None


@dataclass(frozen=True)
class SnippetMeta:
    """What a snippet's sidecar declares (defaults where it has none)."""

    path: Path  # the snippet's .py
    requires: tuple[str, ...] = ()
    requires_module: tuple[str, ...] = ()
    timeout: int = DEFAULT_TIMEOUT
    figure: tuple[str, ...] = ()
    allow_stderr: tuple[AllowStderr, ...] = ()
    tolerance: tuple[Rule, ...] = ()

    def stderr_allowed(self, line: str) -> bool:
        """Whether a stderr line is one the sidecar allows (blank lines always are)."""
        return not line.strip() or any(a.matches(line) for a in self.allow_stderr)


def sidecar_path(script: Path) -> Path:
    """``snippets/x/name.py`` -> ``snippets/x/name.test.toml``."""
    script = Path(script)
    return script.with_name(script.stem + SIDECAR_SUFFIX)


def _strings(data: dict, key: str, where: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise SnippetMetaError(f"{where}: {key} must be a list of strings, e.g. {key} = [\"x\"]")
    return tuple(value)


def _tables(data: dict, key: str, where: str, keys: set[str], required: set[str]) -> list[dict]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise SnippetMetaError(f"{where}: write each {key} entry as a [[{key}]] table")
    for table in value:
        unknown = set(table) - keys
        missing = required - set(table)
        if unknown:
            raise SnippetMetaError(f"{where}: [[{key}]] has unknown keys {sorted(unknown)} (known: {sorted(keys)})")
        if missing:
            raise SnippetMetaError(f"{where}: [[{key}]] {table} lacks {sorted(missing)}")
        if not isinstance(table.get("why", ""), str) or not table.get("why", "").strip():
            raise SnippetMetaError(f"{where}: [[{key}]] {table} needs a non-empty 'why'")
    return value


def parse_sidecar(text: str, script: Path, where: str = "") -> SnippetMeta:
    """Parse the text of a sidecar (see the module docstring for the format)."""
    where = where or str(sidecar_path(script))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise SnippetMetaError(f"{where}: not valid TOML: {error}") from None
    known = {"requires", "requires-module", "timeout", "figure", "allow-stderr", "tolerance"}
    unknown = set(data) - known
    if unknown:
        raise SnippetMetaError(f"{where}: unknown keys {sorted(unknown)} (known: {sorted(known)})")
    requires = _strings(data, "requires", where)
    if set(requires) - set(KNOWN_REQUIREMENTS):
        raise SnippetMetaError(f"{where}: requires {requires}: known requirements are {sorted(KNOWN_REQUIREMENTS)}")
    timeout = data.get("timeout", DEFAULT_TIMEOUT)
    if not isinstance(timeout, int) or isinstance(timeout, bool) or timeout <= 0:
        raise SnippetMetaError(f"{where}: timeout must be a positive number of seconds")
    figures = _strings(data, "figure", where)
    for name in figures:
        if "/" in name or not name.endswith((".svg", ".png")):
            raise SnippetMetaError(f"{where}: figure {name!r} must be a plain .svg/.png file name")
    stderr = tuple(
        AllowStderr(t["pattern"], t["why"])
        for t in _tables(data, "allow-stderr", where, {"pattern", "why"}, {"pattern", "why"})
    )
    for entry in stderr:
        try:
            re.compile(entry.pattern)
        except re.error as error:
            raise SnippetMetaError(f"{where}: allow-stderr pattern {entry.pattern!r}: {error}") from None
    rules = []
    for t in _tables(data, "tolerance", where, {"line", "number", "abs", "rel", "why"}, {"line", "why"}):
        try:
            rules.append(Rule(line=t["line"], why=t["why"], abs=float(t.get("abs", 0.0)), rel=float(t.get("rel", 0.0)),
                              number=t.get("number")))
        except (ValueError, TypeError, re.error) as error:
            raise SnippetMetaError(f"{where}: [[tolerance]] {t}: {error}") from None
    return SnippetMeta(Path(script), requires, _strings(data, "requires-module", where), timeout, figures, stderr,
                       tuple(rules))


@cache
def _meta(script: Path, mtime: float | None) -> SnippetMeta:
    sidecar = sidecar_path(script)
    if mtime is None:
        return SnippetMeta(script)
    return parse_sidecar(sidecar.read_text(encoding="utf-8"), script, _rel(sidecar))


def snippet_meta(path: Path | str) -> SnippetMeta:
    """What ``snippets/x/name.py``'s sidecar declares (:class:`SnippetMeta`; defaults without a sidecar).

    ``path`` may be absolute or relative to the repository (``"snippets/guide/lr_sweep.py"``).
    Raises :class:`SnippetMetaError` for a sidecar that does not follow the format.
    """
    script = Path(path)
    if not script.is_absolute():
        script = REPO / script
    sidecar = sidecar_path(script)
    return _meta(script, sidecar.stat().st_mtime if sidecar.is_file() else None)


def figure_names(path: Path | str) -> list[str]:
    """The figure files a snippet saves in its working folder (``figure = [...]`` in its sidecar)."""
    return list(snippet_meta(path).figure)


def tolerance_rules(meta: SnippetMeta) -> list[Rule]:
    """The snippet's ``[[tolerance]]`` rules, for :func:`docs_tools.outputs.compare_outputs`."""
    return list(meta.tolerance)


def skip_reason(meta: SnippetMeta) -> str | None:
    """Why the snippet cannot run in this Python (no CUDA GPU, a missing optional package), or None."""
    import importlib.util

    if "cuda" in meta.requires:
        import torch

        if not torch.cuda.is_available():
            return f"{meta.path.name} {KNOWN_REQUIREMENTS['cuda']} (requires = [\"cuda\"])"
    for module in meta.requires_module:
        if importlib.util.find_spec(module) is None:
            return f"{meta.path.name} needs {module}, which is not installed (an optional package the page names)"
    return None


def _rel(path: Path) -> str:
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def sidecar_problems(root: Path = SNIPPETS) -> list[str]:
    """Sidecars without their snippet, sidecars that do not parse, and harness comments left in snippets."""
    problems = []
    for sidecar in sorted(root.rglob("*" + SIDECAR_SUFFIX)):
        script = sidecar.with_name(sidecar.name.removesuffix(SIDECAR_SUFFIX) + ".py")
        if not script.is_file():
            problems.append(f"{_rel(sidecar)}: no {script.name} next to it")
            continue
        try:
            meta = snippet_meta(script)
        except SnippetMetaError as error:
            problems.append(str(error))
            continue
        if "cuda" in meta.requires and not CUDA_CODE.search(script.read_text(encoding="utf-8")):
            problems.append(
                f"{_rel(sidecar)}: requires = [\"cuda\"] but {script.name} never uses CUDA "
                "(a CUDA requirement on CPU code switches it off for good)"
            )
    for script in sorted(root.rglob("*.py")):
        for m in HARNESS_COMMENT.finditer(script.read_text(encoding="utf-8")):
            problems.append(
                f"{_rel(script)}: '{m.group(0).strip()}' is test metadata in the code readers copy; "
                f"move it to {sidecar_path(script).name}"
            )
    return problems


def snippet_env() -> dict[str, str]:
    """The environment snippets run in: warnings as errors (with the allow-list), no display, fixed hash seed."""
    env = dict(os.environ)
    env.update(PYTHONWARNINGS=warning_policy.pythonwarnings_env(), MPLBACKEND="Agg", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def machine_class() -> str:
    """``"avx2"`` where PyTorch dispatches to AVX2 kernels (or none), else ``"default"``.

    An AVX2-only CPU, or a newer one limited by ``ATEN_CPU_CAPABILITY=avx2``
    (``.ci/test-avx2`` sets it together with the oneDNN, FBGEMM and MKL switches).
    """
    import torch

    capability = torch.backends.cpu.get_cpu_capability()
    return "avx2" if capability in {"AVX2", "DEFAULT", "NO AVX"} else "default"


def expected_output_file(script: Path) -> Path:
    """The recorded output to compare ``script``'s run with on this machine (``x.avx2.out`` or ``x.out``)."""
    script = Path(script)
    variant = script.with_suffix(f".{machine_class()}.out")
    return variant if variant.exists() else script.with_suffix(".out")
