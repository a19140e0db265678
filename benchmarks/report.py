"""Benchmark results: one table per case, written as JSON and rendered as markdown per language.

A case's JSON (``<case>.json``) holds the data: numbers, names and keyed messages
([Msg][benchmarks.catalog.Msg]). Both tables are rendered from that JSON alone:
``<case>.md`` in English and ``<case>.ja.md`` in Japanese, so ``--render-only`` can
rewrite them at any time without measuring, and the two always show the same numbers.

The markdown files are meant to be included into the site's pages *outside* any
code fence (``--8<-- "benchmarks/results/cpu/<case>.md"``): a plain table, an
optional note line, and the one-line italic environment stamp.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from benchmarks.catalog import LANGS, Msg, english, from_json, render, to_json
from benchmarks.environment import stamp_line
from benchmarks.timing import Comparison, describe_ratio

__all__ = [
    "FORMATS",
    "CaseResult",
    "Column",
    "case_json_files",
    "comparison_cells",
    "markdown_path",
    "render_markdown",
    "render_tables",
    "write_case",
]


def _percent(value: float) -> str:
    pct = value * 100
    return f"{pct:.2f} %" if pct >= 0.1 or pct == 0 else f"{pct:.1e} %"


#: How a column turns a raw number into cell text, by name (the JSON records the name).
FORMATS: dict[str, Callable[[Any], str]] = {
    "text": str,
    "sig3": lambda v: f"{v:.3g}",  # milliseconds, TFLOP/s: three significant digits
    "times": lambda v: f"{v:.2f}x",  # a ratio such as 3.97x
    "percent": _percent,  # a fraction as a percentage; scientific notation below 0.1 %
    "sci1": lambda v: f"{v:.1e}",
    "thousands": lambda v: f"{v:,}",
    "g": lambda v: f"{v:g}",
    "share": lambda v: f"{v * 100:.1f} %",
    "int": lambda v: f"{v:.0f}",
}


@dataclass(frozen=True)
class Column:
    """One column of a results table.

    Attributes:
        key: Key of the value in each row dict.
        header: Catalog key of the column header (``"col.dtype"``).
        fmt: Name in `FORMATS` that turns a raw value into cell text (a message is rendered
            in the table's language instead; ``None`` prints as ``-``).
    """

    key: str
    header: str
    fmt: str = "text"

    def __post_init__(self) -> None:
        Msg(self.header)  # an unknown header key fails here, when the case module is imported
        if self.fmt not in FORMATS:
            raise KeyError(f"unknown column format {self.fmt!r}; choose from {sorted(FORMATS)}")

    def to_json(self) -> dict[str, str]:
        """``{"key", "header", "format"}``."""
        return {"key": self.key, "header": self.header, "format": self.fmt}


def timed_columns(baseline_header: str, variant_header: str) -> list[Column]:
    """The columns every timed comparison ends with (headers are catalog keys)."""
    return [
        Column("baseline_ms", baseline_header, "sig3"),
        Column("variant_ms", variant_header, "sig3"),
        Column("verdict", "col.verdict"),
        Column("spread", "col.spread"),
    ]


@dataclass
class CaseResult:
    """The result of one benchmark case.

    Attributes:
        name: File stem (``dynamic_int8`` writes ``dynamic_int8.json``, ``.md`` and ``.ja.md``).
        title: One-line description (for logs and the JSON).
        columns: The table's columns.
        rows: One dict per table row (raw values and messages; the JSON keeps them so).
        notes: Messages printed under the table (what was measured, what was skipped).
        comparisons: Timing comparisons behind the rows, keyed by the English row label.
        labels: The row label of each comparison as a message (same keys as ``comparisons``).
    """

    name: str
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[Msg] = field(default_factory=list)
    comparisons: dict[str, Comparison] = field(default_factory=dict)
    labels: dict[str, Any] = field(default_factory=dict)

    def add_comparison(self, label: Msg | str, comparison: Comparison) -> None:
        """Record the comparison behind a row, under its label (a message or a name)."""
        key = english(label)
        self.comparisons[key] = comparison
        self.labels[key] = label

    @property
    def too_noisy(self) -> list[str]:
        """English labels of the rows whose timing spread is too wide to publish."""
        return [label for label, c in self.comparisons.items() if c.noisy]

    def to_json(self, env: Mapping[str, Any]) -> dict[str, Any]:
        """Everything the tables are rendered from, as plain JSON types.

        Args:
            env: The environment stamp.

        Returns:
            ``case``, ``title``, ``environment``, ``columns``, ``rows``, ``notes``,
            ``comparisons`` (each with its ``label``) and ``too_noisy``.
        """
        return {
            "case": self.name,
            "title": self.title,
            "environment": _jsonable(env),
            "columns": [c.to_json() for c in self.columns],
            "rows": _jsonable(self.rows),
            "notes": _jsonable(self.notes),
            "comparisons": {
                label: {**c.to_json(), "label": to_json(self.labels.get(label, label))}
                for label, c in self.comparisons.items()
            },
            "too_noisy": self.too_noisy,
        }


def comparison_cells(c: Comparison) -> dict[str, Any]:
    """Row cells shared by every timed comparison.

    Args:
        c: The comparison.

    Returns:
        ``baseline_ms``, ``variant_ms``, ``ratio``, ``verdict`` (a message) and ``spread``
        (the figure as text, or a message that says "too noisy to publish" when it is over the limit).
    """
    spread = Msg("spread.too_noisy", spread=c.spread) if c.noisy else f"{c.spread:.2f}"
    return {
        "baseline_ms": c.baseline_s * 1e3,
        "variant_ms": c.variant_s * 1e3,
        "ratio": c.ratio,
        "verdict": describe_ratio(c),
        "spread": spread,
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return str(value)


def _cell(value: Any, fmt: str, lang: str) -> str:
    value = from_json(value)
    if value is None:
        text = "-"
    elif isinstance(value, Msg):
        text = value.render(lang)
    else:
        text = FORMATS[fmt](value)
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(data: Mapping[str, Any], lang: str = "en") -> str:
    """Render a case's JSON data as a markdown table, its notes and the environment stamp.

    Args:
        data: What ``CaseResult.to_json`` returned (or the ``<case>.json`` file, loaded).
        lang: ``"en"`` or ``"ja"``.

    Returns:
        Markdown text ending with a newline, valid outside a code fence.

    Examples:
        >>> r = CaseResult("x", "X", [Column("dtype", "col.dtype"), Column("ratio", "col.limit", "times")])
        >>> r.rows.append({"dtype": "bfloat16", "ratio": 2.0})
        >>> r.notes.append(Msg("note.median_rounds", rounds=9))
        >>> env = {"cpu_model": "Xeon", "isa_class": "AMX", "torch_version": "2.13.0", "threads": "1",
        ...        "date": "2026-11-21", "mode": "quick", "load_average": "0.5 / 0.5 / 0.5", "device": "cpu"}
        >>> print(render_markdown(r.to_json(env), "ja"))
        | dtype | 上限 |
        | --- | --- |
        | bfloat16 | 2.00x |
        <BLANKLINE>
        交互に実行した 9 ラウンドの中央値です。
        <BLANKLINE>
        *CPU: Xeon · ISA: AMX · torch 2.13.0 · 1 スレッド · 負荷 0.5 · 2026-11-21 · クイック実行*
        <BLANKLINE>
    """
    columns = data["columns"]
    lines = [
        "| " + " | ".join(Msg(c["header"]).render(lang) for c in columns) + " |",
        "| " + " | ".join("---" for _ in columns) + " |",
    ]
    for row in data["rows"]:
        lines.append("| " + " | ".join(_cell(row.get(c["key"]), c["format"], lang) for c in columns) + " |")
    lines.append("")
    notes = [from_json(n) for n in data["notes"]]
    if data["too_noisy"]:
        labels = [from_json(data["comparisons"][label].get("label", label)) for label in data["too_noisy"]]
        notes.append(Msg("note.too_noisy", labels=labels))
    if notes:
        lines.append(("" if lang == "ja" else " ").join(render(n, lang) for n in notes))
        lines.append("")
    lines.append(stamp_line(data["environment"], lang))
    return "\n".join(lines) + "\n"


def markdown_path(json_path: Path, lang: str) -> Path:
    """Where a case's table in ``lang`` goes: ``<case>.md`` (English) or ``<case>.ja.md``.

    Examples:
        >>> markdown_path(Path("benchmarks/results/cpu/matmul.json"), "ja").as_posix()
        'benchmarks/results/cpu/matmul.ja.md'
    """
    return json_path.with_suffix(".md" if lang == "en" else f".{lang}.md")


def render_tables(json_path: Path) -> list[Path]:
    """Rewrite a case's tables in every language from its JSON; measures nothing.

    Args:
        json_path: ``<case>.json``.

    Returns:
        The markdown paths written (English first).
    """
    data = json.loads(json_path.read_text(encoding="utf-8"))
    written = []
    for lang in LANGS:
        path = markdown_path(json_path, lang)
        path.write_text(render_markdown(data, lang), encoding="utf-8")
        written.append(path)
    return written


def write_case(result: CaseResult, env: Mapping[str, Any], out_dir: Path) -> tuple[Path, Path]:
    """Write ``<name>.json``, then render ``<name>.md`` and ``<name>.ja.md`` from it, into ``out_dir``.

    Args:
        result: The case.
        env: The environment stamp (stored in the JSON too).
        out_dir: Folder (created if missing).

    Returns:
        The JSON path and the (English) markdown path.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / f"{result.name}.json"
    json_path.write_text(json.dumps(result.to_json(env), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    md_path, _ = render_tables(json_path)
    return json_path, md_path


def case_json_files(folder: Path) -> list[Path]:
    """The ``<case>.json`` files of a results folder, sorted.

    Args:
        folder: A results folder such as ``benchmarks/results/cpu``.

    Returns:
        The sorted paths.
    """
    return sorted(folder.glob("*.json"))
