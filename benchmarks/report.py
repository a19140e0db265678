"""Benchmark results: one table per case, written as JSON and rendered as markdown per language.

A case's JSON (``<case>.json``) holds the data: numbers, names and keyed messages
([Msg][benchmarks.catalog.Msg]). Both tables are rendered from that JSON alone:
``<case>.md`` in English and ``<case>.ja.md`` in Japanese, so ``--render-only`` can
rewrite them at any time without measuring, and the two always show the same numbers.

The markdown files are meant to be included into the site's pages *outside* any
code fence (``--8<-- "benchmarks/results/cpu/<case>.md"``). A results table puts the
result first: a short summary table (the case, its result, the spread; `summary_layout`
says which columns those are) in a ``<div class="bench-result" markdown>`` that the site's
stylesheet keeps inside a 375 px phone screen, then the full table folded in a
``??? info bench-full`` block (only when it has more columns than the summary), an optional note
line, and the one-line italic environment stamp. A table without a result column (the
environment) is a plain table.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

from benchmarks import provenance
from benchmarks.catalog import LANGS, PLAIN_LABELS, Msg, english, from_json, render, to_json
from benchmarks.environment import stamp_line
from benchmarks.timing import Comparison, describe_ratio

__all__ = [
    "CASE_HEADERS",
    "FORMATS",
    "RESULT_HEADERS",
    "CaseResult",
    "Column",
    "SummaryLayout",
    "case_json_files",
    "comparison_cells",
    "markdown_path",
    "render_markdown",
    "render_tables",
    "summary_layout",
    "write_case",
]


def _percent(value: float) -> str:
    pct = value * 100
    return f"{pct:.2f} %" if pct >= 0.1 or pct == 0 else f"{pct:.1e} %"


def _sig3(value: float) -> str:
    """Three significant digits; from 1,000 up a rounded whole number with thousands separators
    (1,270 rather than ``1.27e+03``, as the pages write it)."""
    text = f"{value:.3g}"
    return f"{float(text):,.0f}" if abs(value) >= 1000 else text


#: How a column turns a raw number into cell text, by name (the JSON records the name).
FORMATS: dict[str, Callable[[Any], str]] = {
    "text": str,
    "sig3": _sig3,  # milliseconds, TFLOP/s: three significant digits
    "times": lambda v: f"{v:.2f}x",  # a ratio such as 3.97x (3.97 倍 in Japanese: see _cell)
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


#: Columns whose "times" value is a size ratio: 「3.98 分の 1」 in Japanese (「縮小率 3.98 倍」 read as a
#: magnification to an editor), 3.98x in English.
FRACTION_HEADERS = frozenset({"col.smaller_than_float32", "col.state_dict_smaller", "col.weights_smaller", "col.limit"})


def _cell(value: Any, fmt: str, lang: str, header: str = "") -> str:
    value = from_json(value)
    if isinstance(value, str) and value in PLAIN_LABELS:  # "float8 scaling" -> 「float8 のスケーリング」
        value = Msg(PLAIN_LABELS[value])
    if value is None:
        text = "-"
    elif isinstance(value, Msg):
        text = value.render(lang)
    elif fmt == "times":
        key = "value.times"
        if header in FRACTION_HEADERS:
            key = "value.fraction_none" if f"{value:.2f}" == "1.00" else "value.fraction"
        text = Msg(key, ratio=value).render(lang)  # 3.97x; 3.97 倍, or 3.97 分の 1 for a size
    else:
        text = FORMATS[fmt](value)
    if lang == "ja":  # STYLE.ja.md: no spaces around a slash between numbers (1/2, 1.27/1.77/1.55)
        text = _JA_SLASH.sub("/", text)
    return text.replace("|", "\\|").replace("\n", " ")


_JA_SLASH = re.compile(r"(?<=\d) / (?=\d)")


#: Header keys of the columns that name a row. In the summary they share its first column, joined
#: with " · " in table order (``Int8WeightOnlyConfig · torch.compile``).
CASE_HEADERS = frozenset(
    {"col.variant", "col.compared_with", "col.model", "col.batch", "col.what_timed", "col.reference",
     "col.what", "col.dtype", "col.torchao_config", "col.mode", "col.size", "col.kernel"}
)

#: Header keys of a result column, in order of preference: the first one a table has is its result
#: (the verdict of a timed comparison; the size ratio of the storage table; TFLOP/s of GPU matmul).
RESULT_HEADERS = ("col.verdict", "col.smaller_than_float32", "col.tflops")

_CASE_JOIN = " · "
#: Japanese joins the first-column labels with 「、」 (a middle dot between two labels is not Japanese usage).
_CASE_JOIN_JA = "、"

#: The environment table's rows whose value is a comma-separated list (Japanese joins it with 「、」).
_JA_LIST_ROWS = frozenset({"isa_class", "isa_flags", "isa_limit"})

#: A blank between two Japanese characters, which Japanese text does not have.
# no blank between two Japanese words, nor after a Japanese parenthesis before one (code keeps its blank):
# 「float16 の autocast(スケーラなし)と比べた …」
_JA_GAP = re.compile(r"(?:(?<=[\u3040-\u30ff\u3400-\u9fff])|(?<=[\u3040-\u30ff\u3400-\u9fff]\))) (?=[\u3040-\u30ff\u3400-\u9fff])")

#: Header keys of the columns that say what a row is compared with: the summary writes "<case> vs <that>".
_VERSUS_HEADERS = frozenset({"col.compared_with", "col.kernel"})


@dataclass(frozen=True)
class SummaryLayout:
    """Which columns of a results table its summary shows (indices into the JSON's ``columns``).

    Attributes:
        case: The columns that name a row, in table order (joined into the summary's first column).
        result: The result column (the summary's second column).
        spread: The spread column, if the table has one (the summary's third column).
        rest: Every other column, in table order (only in the full table).
    """

    case: tuple[int, ...]
    result: int
    spread: int | None
    rest: tuple[int, ...]

    @property
    def full_order(self) -> list[int]:
        """The full table's columns: case, result, spread, then the rest."""
        return [*self.case, self.result, *([] if self.spread is None else [self.spread]), *self.rest]


def summary_layout(columns: list[Mapping[str, str]]) -> SummaryLayout | None:
    """The summary of a results table, from its columns' header keys; ``None`` for a table without a result.

    Args:
        columns: The ``columns`` of a case's JSON (each with its ``header`` key).

    Returns:
        The layout, or ``None`` when no column is a result (`RESULT_HEADERS`) or none names the rows.

    Examples:
        >>> cols = [{"header": h} for h in ("col.model", "col.module", "col.float32_ms", "col.verdict", "col.spread")]
        >>> summary_layout(cols)
        SummaryLayout(case=(0,), result=3, spread=4, rest=(1, 2))
        >>> summary_layout([{"header": "col.field"}, {"header": "col.value"}]) is None
        True
    """
    headers = [c["header"] for c in columns]
    result = next((headers.index(h) for h in RESULT_HEADERS if h in headers), None)
    case = tuple(i for i, h in enumerate(headers) if h in CASE_HEADERS)
    if result is None or not case:
        return None
    spread = headers.index("col.spread") if "col.spread" in headers else None
    rest = tuple(i for i in range(len(headers)) if i not in {*case, result, spread})
    return SummaryLayout(case, result, spread, rest)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join("---" for _ in header) + " |",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def render_markdown(data: Mapping[str, Any], lang: str = "en") -> str:
    """Render a case's JSON data as markdown: the result first, then the full table, notes and stamp.

    A results table (see `summary_layout`) becomes a summary table of three columns, the case (its
    naming columns joined with " · ", and "vs <baseline>" where a column says what the row is
    compared with), the result and the spread, wrapped in ``<div class="bench-result" markdown>``,
    followed by the full table (case, result and spread first) folded in a
    ``??? info bench-full`` block (``details.bench-full``) when it has more columns than the
    summary. Any other table is rendered as it is.

    Args:
        data: What ``CaseResult.to_json`` returned (or the ``<case>.json`` file, loaded).
        lang: ``"en"`` or ``"ja"``.

    Returns:
        Markdown text ending with a newline, valid outside a code fence.

    Examples:
        >>> r = CaseResult("x", "X", [Column("dtype", "col.dtype"), Column("verdict", "col.verdict"),
        ...                           Column("limit", "col.limit", "times")])
        >>> r.rows.append({"dtype": "bfloat16", "verdict": Msg("verdict.faster", ratio=3.0), "limit": 2.0})
        >>> r.notes.append(Msg("note.median_rounds", rounds=9))
        >>> env = {"cpu_model": "Xeon", "isa_class": "AMX", "torch_version": "2.13.0", "threads": "1",
        ...        "date": "2026-11-21", "mode": "quick", "load_average": "0.5 / 0.5 / 0.5", "device": "cpu"}
        >>> print(render_markdown(r.to_json(env), "ja"))
        <div class="bench-result" markdown>
        <BLANKLINE>
        | dtype | 結果(ラウンドの中央値) |
        | --- | --- |
        | bfloat16 | 3.00 倍速い |
        <BLANKLINE>
        </div>
        <BLANKLINE>
        ??? info bench-full "全 3 列の詳しい表"
        <BLANKLINE>
            | dtype | 結果(ラウンドの中央値) | 縮小の上限 |
            | --- | --- | --- |
            | bfloat16 | 3.00 倍速い | 2.00 分の 1 |
        <BLANKLINE>
        値は、交互に実行した 9 ラウンドの中央値です。
        <BLANKLINE>
        計測環境: CPU Xeon、命令セットの区分 AMX、torch 2.13.0、1 スレッド、負荷 0.5、2026-11-21、クイック実行
        <BLANKLINE>
    """
    columns = data["columns"]
    headers = [Msg(c["header"]).render(lang) for c in columns]
    cells = [[_cell(row.get(c["key"]), c["format"], lang, c["header"]) for c in columns] for row in data["rows"]]
    if lang == "ja":  # the environment table's lists of ISA classes and flags: 「AMX、AVX512-FP16」
        cells = [[cell.replace(", ", "、") if row.get("key") in _JA_LIST_ROWS else cell for cell in cells_of_row]
                 for row, cells_of_row in zip(data["rows"], cells)]
    layout = summary_layout(columns)
    lines: list[str] = []
    if layout is None:
        lines += [*_table(headers, cells), ""]
    else:
        summary = [i for i in (layout.result, layout.spread) if i is not None]

        versus = [i for i in layout.case if columns[i]["header"] in _VERSUS_HEADERS]
        named = [i for i in layout.case if i not in versus]

        def summarize(row: list[str], header: bool = False) -> list[str]:
            case = (_CASE_JOIN_JA if lang == "ja" else _CASE_JOIN).join(row[i] for i in named)
            for i in versus:  # "autocast bfloat16 vs float32"; the header: "variant vs baseline"
                case = (Msg("summary.versus_header", variant=case) if header
                        else Msg("summary.versus", variant=case, baseline=row[i])).render(lang)
                case = _JA_GAP.sub("", case)  # 「float32 と比べたバッチ 1」: no blank between two Japanese words
            return [case, *(row[i] for i in summary)]

        header = summarize(headers, header=True)
        lines += ['<div class="bench-result" markdown>', ""]
        lines += [*_table(header, [summarize(row) for row in cells]), "", "</div>", ""]
        if layout.rest:
            order = layout.full_order
            title = Msg("details.full_table", n=len(columns)).render(lang)
            lines += [f'??? info bench-full "{title}"', ""]
            lines += ["    " + line for line in _table([headers[i] for i in order],
                                                        [[row[i] for i in order] for row in cells])]
            lines.append("")
    notes = [from_json(n) for n in data["notes"]]
    if data["too_noisy"]:
        # the rows themselves carry the mark (spread.too_noisy): the note names no row, since a
        # comparison's key is not the label its row shows
        notes.append(Msg("note.too_noisy"))
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


def write_case(result: CaseResult, env: Mapping[str, Any], out_dir: Path, run: str | None = None) -> tuple[Path, Path]:
    """Write ``<name>.json``, then render ``<name>.md`` and ``<name>.ja.md`` from it, into ``out_dir``.

    The JSON ends with its provenance (`benchmarks.provenance`): the run's name and the sha256
    of the data it holds, recorded now, so that a number changed later by hand no longer
    matches it.

    Args:
        result: The case.
        env: The environment stamp (stored in the JSON too).
        out_dir: Folder (created if missing).
        run: The run's name, the same for every case of one run (default: a new one).

    Returns:
        The JSON path and the (English) markdown path.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path = out_dir / f"{result.name}.json"
    data = provenance.seal(result.to_json(env), run or provenance.new_run(_jsonable(env)))
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    md_path, _ = render_tables(json_path)
    return json_path, md_path


#: JSON files in a results folder that are not a case's table (see `case_json_files`).
NOT_CASE_FILES = frozenset({"probes.json"})


def case_json_files(folder: Path) -> list[Path]:
    """The ``<case>.json`` files of a results folder, sorted.

    Other JSON files a GPU run writes beside the cases (``probes.json`` from
    ``python -m benchmarks.probes``) are left out: they are not tables.

    Args:
        folder: A results folder such as ``benchmarks/results/cpu``.

    Returns:
        The sorted paths.
    """
    return sorted(p for p in folder.glob("*.json") if p.name not in NOT_CASE_FILES)
