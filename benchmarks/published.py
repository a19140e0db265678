"""The reader's ratios beside the site's: what ``python -m benchmarks --device cpu`` prints last.

A ratio alone ("bfloat16 0.01x") does not tell a reader whether their run went wrong or their CPU
is simply of another class. So each ratio is printed beside the ratio the site published for the
same case and row, from the committed results of the same instruction-set class:
``benchmarks/results/cpu-avx2`` for CPUs where PyTorch dispatches to AVX2 kernels (or none), and
``benchmarks/results/cpu`` for the others (the class each folder was measured on is in its
``environment.json``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Mapping

__all__ = ["RESULTS", "beside_published", "published_folder", "published_ratios", "row_label"]

RESULTS = Path(__file__).with_name("results")
_AVX2_OR_LESS = {"AVX2", "DEFAULT", "NO AVX"}


def published_folder(torch_cpu_capability: str) -> Path:
    """The committed results of this CPU's class.

    Examples:
        >>> published_folder("AVX2").name, published_folder("AVX512").name
        ('cpu-avx2', 'cpu')
    """
    return RESULTS / ("cpu-avx2" if torch_cpu_capability.upper() in _AVX2_OR_LESS else "cpu")


def row_label(row: Mapping[str, Any], columns: list[Mapping[str, Any]]) -> str:
    """What names a row: the cells the summary table shows as its case (``report.summary_layout``),
    rendered in English and joined; for a table without a summary, its text cells.

    Examples:
        >>> cols = [{"key": "model", "header": "col.model", "format": "text"},
        ...         {"key": "batch", "header": "col.batch", "format": "int"},
        ...         {"key": "verdict", "header": "col.verdict", "format": "text"}]
        >>> row_label({"model": "Linear 1024", "batch": 16, "verdict": "3.1x faster"}, cols)
        'Linear 1024 · 16'
        >>> row_label({"model": {"msg": "verdict.baseline", "args": {}}, "batch": 1, "verdict": "-"}, cols)
        'baseline · 1'
    """
    from benchmarks.report import _CASE_JOIN, _cell, summary_layout

    layout = summary_layout(list(columns))
    if layout is not None:
        picked = [columns[i] for i in layout.case]
    else:
        picked = [c for c in columns if c.get("format") == "text" and c["key"] not in ("verdict", "spread")]
    return _CASE_JOIN.join(_cell(row.get(c["key"]), c.get("format", "text"), "en") for c in picked)


def published_ratios(case: str, folder: Path) -> dict[str, float]:
    """Row label -> published ratio for one case (empty when the class has no such result)."""
    path = folder / f"{case}.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {row_label(row, data["columns"]): row["ratio"] for row in data["rows"] if "ratio" in row}


def _mode(folder: Path) -> str:
    path = folder / "environment.json"
    if not path.exists():
        return "?"
    return str(json.loads(path.read_text(encoding="utf-8"))["environment"].get("mode", "?"))


def beside_published(results: Mapping[str, Any], env: Mapping[str, Any]) -> list[str]:
    """One line per measured ratio: this run's and the published one for this CPU's class.

    Args:
        results: Case name -> ``CaseResult`` of this run.
        env: This run's environment stamp (``torch_cpu_capability`` chooses the class).

    Returns:
        Printable lines (a header first).
    """
    folder = published_folder(str(env.get("torch_cpu_capability", "")))
    published_env = folder / "environment.json"
    isa = published_class = "?"
    if published_env.exists():
        stamp = json.loads(published_env.read_text(encoding="utf-8"))["environment"]
        isa = published_class = stamp.get("isa_class", "?")
        limit = stamp.get("isa_limit")
        if isinstance(limit, str) and limit:  # an older CPU's kernels chosen on a newer one
            isa = f"{stamp.get('torch_cpu_capability', '?')} kernels ({limit}) on {isa}"
    lines = [f"\nThis run beside the site's published ratios ({folder.name}: measured on {isa}); "
             "> 1 means faster than the baseline:"]
    mine = env.get("isa_class")
    if isinstance(mine, str) and mine and mine != published_class:
        lines.append(f"  (this CPU: {mine}; another class than the published run, so ratios that depend on "
                     "bfloat16/float16 or int8 instructions can differ a lot)")
    if env.get("mode") != _mode(folder):
        lines.append(f"  this run is {env.get('mode')!s} mode and the site published a {_mode(folder)} run "
                     "(other sizes): run without --quick to compare ratios")
        return lines
    for name, result in results.items():
        if name == "environment":
            continue
        data = result.to_json(env)
        published = published_ratios(name, folder)
        for row in data["rows"]:
            if "ratio" not in row:
                continue
            label = row_label(row, data["columns"])
            theirs = published.get(label)
            shown = f"{theirs:.3g}x" if theirs is not None else "not published for this class"
            lines.append(f"  {name}: {label}: {row['ratio']:.3g}x (published: {shown})")
    return lines
