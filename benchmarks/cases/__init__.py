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

__all__ = ["ALL_CASES", "CASES", "GPU_CASES", "cases_for", "load_case"]

#: Case name (= results file stem) -> module under ``benchmarks.cases``.
CASES: dict[str, str] = {
    "storage": "storage",
    "matmul": "matmul",
    "dynamic_int8": "dynamic_int8",
    "torchao": "torchao_int8",
    "pt2e": "pt2e",
    "amp_step": "amp_step",
    "reference": "reference",
    "profiler_overhead": "profiler_overhead",
    "onnx_runtime": "onnx_runtime",
}

#: Cases that only mean something on a GPU: run by default with ``--device cuda`` only.
GPU_CASES: dict[str, str] = {
    "gpu_matmul": "gpu_matmul",
    "gpu_transformer_step": "gpu_transformer_step",
}

#: Every case the command knows.
ALL_CASES: dict[str, str] = {**CASES, **GPU_CASES}


def cases_for(device: str) -> list[str]:
    """The cases a run on ``device`` measures by default (the GPU cases only on ``"cuda"``).

    Examples:
        >>> "gpu_matmul" in cases_for("cpu"), "gpu_matmul" in cases_for("cuda")
        (False, True)
    """
    return list(CASES) + (list(GPU_CASES) if device == "cuda" else [])


def load_case(name: str) -> Callable[[BenchConfig], CaseResult]:
    """Import a case's module lazily (torchao prints notices when imported) and return its ``run``.

    Args:
        name: A key of ``ALL_CASES``.

    Returns:
        The case's ``run`` function.

    Raises:
        KeyError: Unknown case name.
    """
    return importlib.import_module(f"benchmarks.cases.{ALL_CASES[name]}").run
