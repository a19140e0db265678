"""Run the selected cases and write the results (JSON + markdown) with the environment stamp."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import torch

from benchmarks.cases import ALL_CASES, GPU_CASES, cases_for, load_case
from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig
from benchmarks.environment import collect_environment
from benchmarks.provenance import new_run
from benchmarks.report import CaseResult, Column, write_case
from reference_impl.errors import ConfigError

__all__ = ["environment_case", "run_bench"]


def environment_case(env: Mapping[str, Any]) -> CaseResult:
    """The environment stamp as a two-column table (``environment.md``).

    Args:
        env: The stamp.

    Returns:
        A case with one row per field (the field's label is a catalog message ``env.<field>``).
    """
    result = CaseResult("environment", "Environment", [Column("field", "col.field"), Column("value", "col.value")])
    for key, value in env.items():
        shown = Msg(f"value.{value}") if key == "mode" else value
        result.rows.append({"field": Msg(f"env.{key}"), "key": key, "value": shown})
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
        cases: Case names (default: every case for the device, see ``cases_for``).
        log: Where progress lines go.

    Returns:
        The results by case name (the environment included).

    Raises:
        ConfigError: An unknown case name, or a GPU-only case on the CPU.
    """
    names = list(cases) if cases else (list(GPU_CASES) if cfg.stand_in else cases_for(cfg.device))
    unknown = [n for n in names if n not in ALL_CASES]
    if unknown:
        raise ConfigError(f"unknown case(s) {unknown}; choose from {sorted(ALL_CASES)}")
    gpu_only = [n for n in names if n in GPU_CASES and cfg.device != "cuda"]
    if cfg.stand_in and not set(names) <= set(GPU_CASES):
        raise ConfigError(f"--dry-run runs the GPU cases only; {sorted(set(names) - set(GPU_CASES))} are not")
    if gpu_only:
        raise ConfigError(f"case(s) {gpu_only} measure a GPU; run them with --device cuda on a machine with one")
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(cfg.threads)
    try:
        # a stand-in run (--dry-run) stamps the CPU it really ran on
        env = collect_environment(device=cfg.target_device, threads=cfg.threads, mode="quick" if cfg.quick else "full")
        results = {"environment": environment_case(env)}
        run = new_run(env)  # one name for every file of this run, each with its digest (benchmarks.provenance)
        for name in ["environment", *names]:
            start = time.perf_counter()
            if name != "environment":
                log(f"[bench] {name} ...")
                results[name] = load_case(name)(cfg)
            _, md_path = write_case(results[name], env, out_dir, run)
            log(f"[bench] {name}: {time.perf_counter() - start:.1f} s -> {md_path}")
    finally:
        torch.set_num_threads(previous_threads)
    return results
