"""Benchmark results: one table per case, written as JSON and as markdown.

The markdown files are meant to be included into the site's pages *outside* any
code fence (``--8<-- "benchmarks/results/cpu/<case>.md"``): a plain table, an
optional note line, and the one-line italic environment stamp.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from benchmarks.environment import stamp_line
from benchmarks.i18n import UntranslatedError, japanese_path, to_japanese
from benchmarks.timing import Comparison, describe_ratio

__all__ = ["CaseResult", "Column", "case_markdown_files", "comparison_cells", "render_markdown", "write_case",
           "write_japanese"]


@dataclass(frozen=True)
class Column:
    """One column of a results table.

    Attributes:
        key: Key of the value in each row dict.
        header: Column header in the markdown table.
        fmt: Turns the raw value into the cell text (default ``str``; ``None`` prints as ``-``).
    """

    key: str
    header: str
    fmt: Callable[[Any], str] = str


@dataclass
class CaseResult:
    """The result of one benchmark case.

    Attributes:
        name: File stem (``dynamic_int8`` writes ``dynamic_int8.json`` and ``.md``).
        title: One-line description.
        columns: The table's columns.
        rows: One dict per table row (raw values; JSON keeps them raw).
        notes: Sentences printed under the table (what was measured, what was skipped).
        comparisons: Timing comparisons behind the rows, keyed by row label.
    """

    name: str
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    comparisons: dict[str, Comparison] = field(default_factory=dict)

    @property
    def too_noisy(self) -> list[str]:
        """Labels of the rows whose timing spread is too wide to publish."""
        return [label for label, c in self.comparisons.items() if c.noisy]


def _cell(value: Any, fmt: Callable[[Any], str]) -> str:
    text = "-" if value is None else fmt(value)
    return text.replace("|", "\\|").replace("\n", " ")


def comparison_cells(c: Comparison) -> dict[str, Any]:
    """Row cells shared by every timed comparison.

    Args:
        c: The comparison.

    Returns:
        ``baseline_ms``, ``variant_ms``, ``ratio``, ``verdict`` and ``spread`` (text that
        says "too noisy to publish" when the spread is over the limit).
    """
    spread = f"{c.spread:.2f}" + (" (too noisy to publish)" if c.noisy else "")
    return {
        "baseline_ms": c.baseline_s * 1e3,
        "variant_ms": c.variant_s * 1e3,
        "ratio": c.ratio,
        "verdict": describe_ratio(c),
        "spread": spread,
    }


def render_markdown(result: CaseResult, env: dict[str, str]) -> str:
    """Render a case as a markdown table, its notes and the environment stamp.

    Args:
        result: The case.
        env: The environment stamp.

    Returns:
        Markdown text ending with a newline, valid outside a code fence.

    Examples:
        >>> r = CaseResult("x", "X", [Column("a", "A"), Column("b", "B", lambda v: f"{v:.1f}")])
        >>> r.rows.append({"a": "one", "b": 2.0})
        >>> env = {"cpu_model": "Xeon", "isa_class": "AMX", "torch_version": "2.13.0", "threads": "1",
        ...        "date": "2026-11-21", "mode": "quick", "load_average": "0.5 / 0.5 / 0.5", "device": "cpu"}
        >>> print(render_markdown(r, env))
        | A | B |
        | --- | --- |
        | one | 2.0 |
        <BLANKLINE>
        *CPU: Xeon · ISA: AMX · torch 2.13.0 · 1 thread · load 0.5 · 2026-11-21 · quick run*
        <BLANKLINE>
    """
    lines = [
        "| " + " | ".join(c.header for c in result.columns) + " |",
        "| " + " | ".join("---" for _ in result.columns) + " |",
    ]
    for row in result.rows:
        lines.append("| " + " | ".join(_cell(row.get(c.key), c.fmt) for c in result.columns) + " |")
    lines.append("")
    notes = list(result.notes)
    if result.too_noisy:
        notes.append(
            "Too noisy to publish (per-round ratios differ by more than the limit): "
            + "; ".join(result.too_noisy)
            + ". Re-run on a quieter machine."
        )
    if notes:
        lines.append(" ".join(notes))
        lines.append("")
    lines.append(stamp_line(env))
    return "\n".join(lines) + "\n"


def _jsonable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return str(value)


def write_case(result: CaseResult, env: dict[str, str], out_dir: Path) -> tuple[Path, Path]:
    """Write ``<name>.json``, ``<name>.md`` and its Japanese version ``<name>.ja.md`` into ``out_dir``.

    Args:
        result: The case.
        env: The environment stamp (stored in the JSON too).
        out_dir: Folder (created if missing).

    Returns:
        The JSON path and the (English) markdown path.

    Raises:
        UntranslatedError: The markdown has English text the Japanese translation does not know.
            The JSON and the English markdown are written anyway (nothing measured is lost) and a
            stale ``.ja.md`` is removed; add the text to ``benchmarks/i18n.py``, then run
            ``python -m benchmarks --render-only``.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    data = {
        "case": result.name,
        "title": result.title,
        "environment": env,
        "columns": {c.key: c.header for c in result.columns},
        "rows": _jsonable(result.rows),
        "notes": result.notes,
        "comparisons": {label: c.to_json() for label, c in result.comparisons.items()},
        "too_noisy": result.too_noisy,
    }
    json_path = out_dir / f"{result.name}.json"
    md_path = out_dir / f"{result.name}.md"
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    markdown = render_markdown(result, env)
    md_path.write_text(markdown)
    ja_path = japanese_path(md_path)
    try:
        ja_path.write_text(to_japanese(markdown))
    except UntranslatedError:
        ja_path.unlink(missing_ok=True)
        raise
    return json_path, md_path


def case_markdown_files(folder: Path) -> list[Path]:
    """The English ``<case>.md`` files of a results folder (those with a ``<case>.json`` next to them).

    Args:
        folder: A results folder such as ``benchmarks/results/cpu``.

    Returns:
        The sorted paths (a ``README.md`` or a ``.ja.md`` is not a case).
    """
    return sorted(p for p in folder.glob("*.md") if not p.name.endswith(".ja.md") and p.with_suffix(".json").is_file())


def write_japanese(folder: Path) -> list[Path]:
    """Rewrite every ``<case>.ja.md`` of a results folder from its ``<case>.md``; measures nothing.

    Args:
        folder: A results folder such as ``benchmarks/results/cpu``.

    Returns:
        The ``.ja.md`` paths written.

    Raises:
        UntranslatedError: A file has English text the translation does not know (nothing is written).
    """
    pages = {japanese_path(md): to_japanese(md.read_text()) for md in case_markdown_files(folder)}
    for path, text in pages.items():
        path.write_text(text)
    return list(pages)
