"""The benchmark cases. Each module has ``run(cfg) -> CaseResult``.

To add a case: write ``cases/<name>.py`` with a ``run`` function and add it to
`CASES`; the command, the JSON/markdown writer
and the tests pick it up. To add a reference implementation to the existing
``reference`` case, append a pair to ``cases.reference.REFERENCE_PAIRS`` instead.
"""

from __future__ import annotations

import importlib
from typing import Callable

from benchmarks.config import BenchConfig
from benchmarks.report import CaseResult

__all__ = ["CASES", "load_case"]

#: Case name (= results file stem) -> module under ``benchmarks.cases``.
CASES: dict[str, str] = {
    "storage": "storage",
    "matmul": "matmul",
    "dynamic_int8": "dynamic_int8",
    "torchao": "torchao_int8",
    "amp_step": "amp_step",
    "reference": "reference",
    "profiler_overhead": "profiler_overhead",
    "onnx_runtime": "onnx_runtime",
}


def load_case(name: str) -> Callable[[BenchConfig], CaseResult]:
    """Import a case's module lazily (torchao prints notices when imported) and return its ``run``.

    Args:
        name: A key of ``CASES``.

    Returns:
        The case's ``run`` function.

    Raises:
        KeyError: Unknown case name.
    """
    return importlib.import_module(f"benchmarks.cases.{CASES[name]}").run
