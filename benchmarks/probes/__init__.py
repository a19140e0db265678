"""GPU probes: scripts that settle the "not checked" cells of the support matrix on a GPU.

``python -m benchmarks.probes --out DIR`` runs every probe on the CUDA device, each in its own
process with a time limit, and writes ``DIR/probes.json``: one
[ProbeResult][benchmarks.probes.base.ProbeResult] per probe (the cell it decides, the outcome,
the evidence and the real exception text) under an environment stamp (GPU, compute capability,
driver, torch, CUDA, torchao). ``--dry-run`` runs the same code on this CPU, substituting only the
GPU-only calls, to prove the probes before a GPU is at hand; it decides nothing.

Each probe is a module with ``PROBE``, a [Probe][benchmarks.probes.base.Probe] (the cell id without
its ``sm<capability>`` row, the support matrix's footnote for that cell, the source line it quotes,
the question and the dry run's stand-ins), and ``run(device)``, built from the skeleton in
``benchmarks.probes.base``:

- ``float8_e5m2_inference``: float8 inference with e5m2 activations or weights;
- ``int8_dynamic``: torchao's dynamic int8, and whether ``torch._int_mm`` did the product;
- ``int4_mslk``: ``Int4WeightOnlyConfig()`` on MSLK's int4 kernel;
- ``int4_tinygemm``: ``Int4WeightOnlyConfig`` with tinygemm packing;
- ``scaled_mm_rowwise``: ``F.scaled_mm`` with one scale per row (PyTorch's CUTLASS kernel from 10.0 on);
- ``mxfp8_inference``, ``nvfp4_inference``, ``mxfp8_training``: torchao's MX and NVFP4 configs with
  their own kernels (what compute capability 12.0, the RTX 50, does with them).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from benchmarks.probes.base import NVIDIA_ROWS, OUTCOMES, ProbeResult, cell_id

__all__ = ["NVIDIA_ROWS", "OUTCOMES", "PROBES", "ProbeResult", "cell_ids", "load"]

#: The probes, in the order they run.
PROBES = ("float8_e5m2_inference", "int8_dynamic", "int4_mslk", "int4_tinygemm",
          "scaled_mm_rowwise", "mxfp8_inference", "nvfp4_inference", "mxfp8_training")


def load(name: str) -> ModuleType:
    """The module of probe ``name`` (imports no torchao: each probe does that when it runs).

    Examples:
        >>> load("int8_dynamic").PROBE.cell
        'int8-torchao.dynamic'
    """
    if name not in PROBES:
        raise KeyError(f"no probe {name!r}; the probes are {', '.join(PROBES)}")
    return importlib.import_module(f"benchmarks.probes.{name}")


def cell_ids(name: str) -> list[str]:
    """The support-matrix cells probe ``name`` decides: its column, on every NVIDIA row of the matrix.

    Examples:
        >>> cell_ids("float8_e5m2_inference")[-3:]
        ['sm90.float8-inference.e5m2', 'sm100.float8-inference.e5m2', 'sm120.float8-inference.e5m2']
    """
    return [cell_id(row, load(name).PROBE.cell) for row in NVIDIA_ROWS]
