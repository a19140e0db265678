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
    number = 3                          # optional: only the 3rd number of that line (1-based;
                                        # -1 the last; a list such as [-3, -2] names several)
    abs = 0.01                          # and/or rel: |real - shown| <= abs + rel * |shown|
    spread = 0.003                      # required with a bound: the largest |real - shown| observed;
                                        # the bound may not exceed what it justifies (records.py)
    why = "observed: 0.962 (AMX), 0.964 (AVX-512), 0.965 (AVX2)"
    [[tolerance]]                       # instead of a bound, why a value cannot be compared:
    line = '^with CUDA events:'
    varies = "run"                      # a measurement (time, rate, peak memory): any value, text exact;
                                        # "gpu"/"torch": the line depends on the GPU / torch version;
                                        # "cpu": on the kind of CPU (the pattern pins each class's line)
    why = "a GPU timing: it differs on every GPU and every run"
    [recorded]                          # where the shown .out was recorded (rendered under the
    device = "NVIDIA H100 80GB HBM3"    # output on both languages' pages, docs/hooks/outputs.py)
    torch = "2.11.0+cu130"
    cuda = "13.0"                       # optional (a CPU recording has none)
    date = "2026-11-26"

An unknown key, a wrong type, an ``[[allow-stderr]]`` or ``[[tolerance]]`` without its ``why``
raise :class:`SnippetMetaError`; ``tests/test_snippets.py`` also fails a sidecar without its
``.py``, a harness-looking comment (``# requires:`` ...) left in a snippet, and a CUDA snippet
whose recorded output has no ``[recorded]`` table (:func:`sidecar_problems`).

``[recorded]`` says which machine printed the ``.out`` a page shows: a GPU output is recorded on
whatever GPU machine is lent, not on the machine that runs the suite, so the page says where
(:meth:`Recorded.caption`). ``--update-outputs`` rewrites it for a CUDA snippet
(:func:`with_recorded`), and :func:`tolerance_rules` uses it to decide whether a
``varies = "gpu"``/``"torch"`` rule applies: not on the recorded GPU and torch version, where
the output must be exactly the recorded one.

Where a result really differs by kind of CPU (int8 arithmetic without VNNI), the sidecar declares
a ``[[tolerance]]`` rule with its ``why`` (docs_tools/outputs.py), and the page says so.

Used by the tests and by the docs build (figures), so it imports nothing beyond the standard
library and :mod:`docs_tools`.
"""

from __future__ import annotations

import datetime
import os
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from docs_tools import warning_policy
from docs_tools.outputs import Rule

__all__ = [
    "CUDA_CODE", "REPO", "SNIPPETS", "AllowStderr", "Recorded", "SnippetMeta", "SnippetMetaError",
    "current_environment", "figure_names", "sidecar_path", "sidecar_problems",
    "skip_reason", "snippet_env", "snippet_meta", "tolerance_rules", "with_recorded",
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
class Recorded:
    """Where a snippet's shown output was recorded (the sidecar's ``[recorded]`` table)."""

    device: str  # the name torch reports (torch.cuda.get_device_name()), e.g. "NVIDIA H100 80GB HBM3"
    torch: str  # torch.__version__, e.g. "2.11.0+cu130"
    date: str  # ISO date, e.g. "2026-11-26"
    cuda: str | None = None  # torch.version.cuda, e.g. "13.0"; None for a CPU recording

    @property
    def torch_release(self) -> str:
        """torch's major.minor version ("2.11"), what decides whether a ``varies = "torch"`` rule applies."""
        return _release(self.torch)

    def caption(self, lang: str) -> str:
        """The line shown under the output on a page, in ``lang`` ("ja" or "en")."""
        details = [f"torch {self.torch}"] + ([f"CUDA {self.cuda}"] if self.cuda else [])
        if lang == "ja":
            return f"{self.device} での出力({'、'.join(details)}、{self.date} に記録)"
        return f"Output on {self.device} ({', '.join(details)}, recorded {self.date})"

    def toml(self) -> str:
        """The ``[recorded]`` table as sidecar text."""
        lines = [
            "[recorded]  # where the shown .out was recorded (rendered under the output on both languages)",
            f"device = {_toml_string(self.device)}",
            f"torch = {_toml_string(self.torch)}",
        ]
        if self.cuda:
            lines.append(f"cuda = {_toml_string(self.cuda)}")
        lines.append(f"date = {_toml_string(self.date)}")
        return "\n".join(lines) + "\n"


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _release(version: str) -> str:
    """``"2.11.0+cu130"`` -> ``"2.11"``."""
    m = re.match(r"(\d+)\.(\d+)", version)
    return f"{m.group(1)}.{m.group(2)}" if m else version


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
    recorded: Recorded | None = None

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
    known = {"requires", "requires-module", "timeout", "figure", "allow-stderr", "tolerance", "recorded"}
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
    for t in _tables(data, "tolerance", where, {"line", "number", "abs", "rel", "varies", "why", "spread"}, {"line", "why"}):
        if "varies" not in t and "spread" not in t:
            raise SnippetMetaError(
                f"{where}: [[tolerance]] {t}: a bound needs 'spread', the largest |printed - shown| observed "
                "(on the CPU classes and torch versions of recorded/, or the runs named in 'why'): "
                "tests/test_cpu_records.py checks the bound against it"
            )
        try:
            spread = t.get("spread")
            rules.append(Rule(line=t["line"], why=t["why"], abs=float(t.get("abs", 0.0)), rel=float(t.get("rel", 0.0)),
                              number=t.get("number"), varies=t.get("varies"),
                              spread=float(spread) if isinstance(spread, (int, float)) and not isinstance(spread, bool) else spread))
        except (ValueError, TypeError, re.error) as error:
            raise SnippetMetaError(f"{where}: [[tolerance]] {t}: {error}") from None
    recorded = _recorded(data.get("recorded"), where)
    if recorded is None and any(r.varies in ("gpu", "torch") for r in rules):
        raise SnippetMetaError(
            f"{where}: a varies = \"gpu\"/\"torch\" rule needs a [recorded] table (it applies only off the recorded machine)"
        )
    return SnippetMeta(Path(script), requires, _strings(data, "requires-module", where), timeout, figures, stderr,
                       tuple(rules), recorded)


RECORDED_KEYS = {"device", "torch", "cuda", "date"}


def _recorded(table, where: str) -> Recorded | None:
    if table is None:
        return None
    if not isinstance(table, dict):
        raise SnippetMetaError(f"{where}: write recorded as a [recorded] table")
    unknown = set(table) - RECORDED_KEYS
    missing = {"device", "torch", "date"} - set(table)
    if unknown:
        raise SnippetMetaError(f"{where}: [recorded] has unknown keys {sorted(unknown)} (known: {sorted(RECORDED_KEYS)})")
    if missing:
        raise SnippetMetaError(f"{where}: [recorded] lacks {sorted(missing)}")
    if not all(isinstance(v, str) and v.strip() for v in table.values()):
        raise SnippetMetaError(f"{where}: [recorded] values are non-empty strings, e.g. date = \"2026-11-26\"")
    try:
        datetime.date.fromisoformat(table["date"])
    except ValueError:
        raise SnippetMetaError(f"{where}: [recorded] date {table['date']!r} is not an ISO date (YYYY-MM-DD)") from None
    if not re.match(r"\d+\.\d+", table["torch"]):
        raise SnippetMetaError(f"{where}: [recorded] torch {table['torch']!r} is not a version (torch.__version__)")
    return Recorded(table["device"], table["torch"], table["date"], table.get("cuda"))


def with_recorded(sidecar_text: str, recorded: Recorded) -> str:
    """``sidecar_text`` with its ``[recorded]`` table replaced by (or, without one, followed by) ``recorded``."""
    lines = sidecar_text.splitlines(keepends=True)
    start = next((i for i, ln in enumerate(lines) if re.match(r"\s*\[recorded\]\s*(#.*)?$", ln)), None)
    if start is None:
        text = sidecar_text if sidecar_text.endswith("\n") or not sidecar_text else sidecar_text + "\n"
        return text + ("\n" if text.strip() else "") + recorded.toml()
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
    tail = "".join(lines[end:])
    return "".join(lines[:start]) + recorded.toml() + ("\n" + tail if tail else "")


def current_environment() -> dict[str, str | None]:
    """The machine this Python runs on, as ``[recorded]`` names it: device (the CUDA GPU's name, or
    None without one), torch, cuda (torch.version.cuda) and today's date (UTC)."""
    import torch

    return {
        "device": torch.cuda.get_device_name() if torch.cuda.is_available() else None,
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
    }


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


def tolerance_rules(meta: SnippetMeta, environment: dict[str, str | None] | None = None) -> list[Rule]:
    """The snippet's ``[[tolerance]]`` rules that apply here, for :func:`docs_tools.outputs.compare_outputs`.

    A ``varies = "gpu"`` rule applies only where the GPU (``environment["device"]``) is not the
    ``[recorded]`` one, a ``varies = "torch"`` rule only where torch's major.minor version is not;
    on the recorded machine those lines must be exactly as shown. ``environment`` defaults to
    :func:`current_environment`, which imports torch only when a sidecar has such a rule.
    """
    rules = list(meta.tolerance)
    if not any(r.varies in ("gpu", "torch") for r in rules):
        return rules  # bounds, measurements and varies = "cpu" apply on every machine
    env = environment if environment is not None else current_environment()
    rec = meta.recorded
    differs = {
        "gpu": rec is None or env.get("device") != rec.device,
        "torch": rec is None or _release(env.get("torch") or "") != rec.torch_release,
    }
    return [r for r in rules if r.varies not in ("gpu", "torch") or differs[r.varies]]


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
        out = script.with_suffix(".out")
        if "cuda" in meta.requires and meta.recorded is None and out.is_file() and out.read_text(encoding="utf-8").strip():
            problems.append(
                f"{_rel(sidecar)}: {out.name} is a GPU output but the sidecar has no [recorded] table "
                "(device, torch, cuda, date): the page must say where it was recorded"
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
