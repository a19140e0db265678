"""Run the selected cases and write the results (JSON + markdown) with the environment stamp."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Sequence

import torch

from benchmarks.cases import CASES, load_case
from benchmarks.config import BenchConfig
from benchmarks.environment import collect_environment
from benchmarks.i18n import UntranslatedError
from benchmarks.report import CaseResult, Column, write_case
from reference_impl.errors import ConfigError

__all__ = ["environment_case", "run_bench"]

_LABELS = {
    "date": "date",
    "mode": "mode",
    "device": "device",
    "cpu_model": "CPU model",
    "logical_cpus": "logical CPUs",
    "isa_class": "ISA class",
    "isa_flags": "ISA flags present",
    "isa_limit": "instruction set limited by",
    "torch_cpu_capability": "kernels PyTorch dispatches to",
    "torch_version": "torch",
    "torch_cuda": "torch CUDA",
    "torch_blas": "BLAS",
    "torch_onednn": "oneDNN",
    "torch_build_type": "build type",
    "torchao_version": "torchao",
    "python": "Python",
    "os": "OS",
    "threads": "threads while measuring",
    "quantized_engine": "quantized engine",
    "load_average": "load average at start",
    "gpu_name": "GPU",
    "gpu_capability": "GPU compute capability",
    "gpu_driver": "GPU driver",
    "gpu_clocks": "GPU clocks",
}


def environment_case(env: dict[str, str]) -> CaseResult:
    """The environment stamp as a two-column table (``environment.md``).

    Args:
        env: The stamp.

    Returns:
        A case with one row per field.
    """
    result = CaseResult("environment", "Environment", [Column("field", "field"), Column("value", "value")])
    for key, value in env.items():
        result.rows.append({"field": _LABELS.get(key, key), "key": key, "value": value})
    return result


def run_bench(
    cfg: BenchConfig,
    out_dir: Path,
    cases: Sequence[str] | None = None,
    log: Callable[[str], None] = print,
) -> dict[str, CaseResult]:
    """Run cases and write ``<case>.json`` / ``<case>.md`` plus ``environment.json`` / ``.md``.

    Args:
        cfg: The settings.
        out_dir: Output folder (created if missing).
        cases: Case names (default: all of ``CASES``).
        log: Where progress lines go.

    Returns:
        The results by case name (the environment included).

    Raises:
        ConfigError: An unknown case name.
        UntranslatedError: After all cases ran, when a table has English text that
            ``benchmarks/i18n.py`` cannot translate (its JSON and English markdown
            are written; only the ``.ja.md`` is missing).
    """
    names = list(cases) if cases else list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        raise ConfigError(f"unknown case(s) {unknown}; choose from {sorted(CASES)}")
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(cfg.threads)
    try:
        env = collect_environment(device=cfg.device, threads=cfg.threads, mode="quick" if cfg.quick else "full")
        results = {"environment": environment_case(env)}
        untranslated = []
        for name in ["environment", *names]:
            start = time.perf_counter()
            if name != "environment":
                log(f"[bench] {name} ...")
                results[name] = load_case(name)(cfg)
            try:
                _, md_path = write_case(results[name], env, out_dir)
            except UntranslatedError as err:  # the English table is written: keep measuring the rest
                untranslated.append(str(err))
                log(f"[bench] {name}: no Japanese table: {err}")
                continue
            log(f"[bench] {name}: {time.perf_counter() - start:.1f} s -> {md_path}")
    finally:
        torch.set_num_threads(previous_threads)
    if untranslated:
        raise UntranslatedError(
            "measured and written in English, but not translated: " + " | ".join(untranslated)
            + "; then run `python -m benchmarks --render-only`"
        )
    return results
