"""``python -m benchmarks.probes``: run every probe, each in its own process, and write ``probes.json``.

Each probe runs in a child process (``python -m benchmarks.probes --child NAME``) with a time
limit, so that a probe that hangs or breaks the CUDA context costs only its own answer; the
whole run has a budget (100 s on a GPU: eight probes of a few seconds each, torchao's import included) and a probe that would start past it is recorded as not
run. The child prints its [ProbeResult][benchmarks.probes.base.ProbeResult] as one JSON line.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib.metadata
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks import provenance
from benchmarks.probes import PROBES, load
from benchmarks.probes.base import (
    NVIDIA_ROWS,
    ProbeResult,
    capability_of,
    cell_id,
    error_text,
    traceback_tail,
)

__all__ = ["RESULT_MARKER", "build_parser", "environment_stamp", "main", "run_probe"]

#: The prefix of the line on which a child process prints its result.
RESULT_MARKER = "PROBE-RESULT "
#: Seconds for the whole run on a GPU (every probe included), and for one probe.
GPU_BUDGET_S, GPU_PROBE_LIMIT_S = 100.0, 40.0
#: The same on a CPU dry run, where importing torchao alone takes seconds on a small machine.
DRY_BUDGET_S, DRY_PROBE_LIMIT_S = 600.0, 300.0
#: A probe is not started with less time than this left in the budget.
MIN_START_S = 3.0
NO_GPU_MESSAGE = (
    "error: no CUDA GPU here (torch.cuda.is_available() is False). The probes decide GPU cells of the "
    "support matrix, so they need one: run them on a machine with an NVIDIA GPU and a CUDA build of "
    "torch, or pass --dry-run to run their code on this CPU (a dry run decides nothing)."
)


def build_parser(prog: str = "python -m benchmarks.probes") -> argparse.ArgumentParser:
    """The argument parser of the probes command."""
    p = argparse.ArgumentParser(
        prog=prog,
        description="Run the GPU probes of the support matrix (one per 'not checked' cell) on the CUDA "
        "device and write DIR/probes.json with the environment stamp. Exit status: 0 when every probe "
        "reached its end, 1 when one crashed, timed out or did not start within the budget, 2 without "
        "a GPU (and without --dry-run) or on a usage error.",
    )
    p.add_argument("--out", type=Path, help="folder for probes.json (created if missing)")
    p.add_argument("--dry-run", action="store_true",
                   help="run every probe's code on this CPU, substituting only the GPU-only calls; decides nothing")
    p.add_argument("--probes", nargs="+", choices=PROBES, metavar="PROBE",
                   help=f"probes to run (default: all): {', '.join(PROBES)}")
    p.add_argument("--budget", type=float, default=None,
                   help=f"seconds for the whole run (default {GPU_BUDGET_S:g} on a GPU, {DRY_BUDGET_S:g} for --dry-run)")
    p.add_argument("--probe-limit", type=float, default=None,
                   help=f"seconds for one probe (default {GPU_PROBE_LIMIT_S:g}; {DRY_PROBE_LIMIT_S:g} for --dry-run)")
    p.add_argument("--list", action="store_true", help="list the probes and the cells they decide, run nothing")
    p.add_argument("--child", metavar="PROBE", choices=PROBES, help=argparse.SUPPRESS)
    p.add_argument("--device", choices=["cuda", "cpu"], default="cuda", help=argparse.SUPPRESS)
    return p


def run_probe(name: str, device: str) -> ProbeResult:
    """Run probe ``name`` in this process: time it, record its warnings, catch a failure of its own code.

    Args:
        name: A probe of ``benchmarks.probes.PROBES``.
        device: ``"cuda"``, or ``"cpu"`` for the dry run.

    Returns:
        Its result, with ``probe``, ``seconds`` and ``warnings`` filled in; ``decides`` is left
        False (the command sets it, knowing whether the run was a dry one).
    """
    module = load(name)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # a warning is part of the finding, not a reason to stop
        try:
            result = module.run(device)
        except Exception as err:  # noqa: BLE001 - the probe's own code failed: say so, keep the others
            try:
                capability = capability_of(device)
            except Exception:  # noqa: BLE001
                capability = (0, 0)
            result = ProbeResult(
                cell_id=cell_id(capability, module.PROBE.cell),
                outcome="undecided",
                evidence="the probe's own code failed:\n" + traceback_tail(err),
                error=error_text(err),
                footnote=module.PROBE.footnote,
                source=module.PROBE.source,
            )
    seen: list[str] = []
    for w in caught:
        text = f"{w.category.__name__}: {' '.join(str(w.message).split())[:300]}"
        if text not in seen:
            seen.append(text)
    evidence = result.evidence
    if device == "cpu":
        evidence = f"dry run on the CPU, decides nothing ({module.PROBE.stand_in})\n{evidence}"
    return replace(result, probe=name, evidence=evidence, seconds=round(time.perf_counter() - start, 2),
                   warnings=tuple(seen))


def _child(name: str, device: str) -> int:
    result = run_probe(name, device)
    print(RESULT_MARKER + json.dumps(result.to_json()), flush=True)
    return 0


def _package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    git = shutil.which("git")
    if git is None:
        return None
    try:
        out = subprocess.run([git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _driver(uuid: object) -> str | None:
    from benchmarks.environment import nvml_facts

    facts = nvml_facts(uuid)
    if facts is not None:
        return facts["driver"]
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    text = uuid.decode() if isinstance(uuid, bytes) else str(uuid)
    if not text.startswith("GPU-"):
        text = "GPU-" + text
    try:
        out = subprocess.run([smi, f"--id={text}", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip().splitlines()[0] if out.stdout.strip() else None


def environment_stamp(dry_run: bool) -> dict[str, Any]:
    """What the probes ran on: GPU, compute capability, driver, torch, CUDA, torchao, date.

    Args:
        dry_run: A CPU dry run (the GPU fields are None, and ``stand_in_capability`` names the
            row the cell ids use).

    Returns:
        A JSON-ready dict.
    """
    import torch

    stamp: dict[str, Any] = {
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "dry_run": dry_run,
        "gpu_name": None,
        "gpu_capability": None,
        "gpu_uuid": None,
        "gpu_driver": None,
        "torch": torch.__version__,
        "torch_cuda": torch.version.cuda,
        "torchao": _package_version("torchao"),
        "mslk": next((v for v in (_package_version(n) for n in ("mslk", "mslk-cuda", "mslk-cuda-nightly")) if v), None),
        "triton": _package_version("triton"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "commit": _git_commit(),
    }
    if dry_run:
        stamp["stand_in_capability"] = "{}.{}".format(*capability_of("cpu"))
        return stamp
    props = torch.cuda.get_device_properties(0)
    stamp.update(
        gpu_name=props.name,
        gpu_capability=f"{props.major}.{props.minor}",
        gpu_uuid="GPU-" + str(props.uuid).lower().removeprefix("gpu-"),
        gpu_driver=_driver(props.uuid),
    )
    return stamp


def _not_run(name: str, capability: tuple[int, int], why: str) -> ProbeResult:
    probe = load(name).PROBE
    return ProbeResult(cell_id=cell_id(capability, probe.cell), outcome="undecided", evidence=why, error=None,
                       probe=name, footnote=probe.footnote, source=probe.source)


def _in_child(name: str, device: str, limit: float, capability: tuple[int, int]) -> tuple[ProbeResult, bool]:
    """Run one probe in a child process; the bool says whether it ended normally."""
    command = [sys.executable, "-m", "benchmarks.probes", "--child", name, "--device", device]
    # the child imports this package from where the parent did, whatever its working directory
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    start = time.perf_counter()
    try:
        done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=limit, env=env)
    except subprocess.TimeoutExpired:
        result = _not_run(name, capability, f"timed out after {limit:.0f} s (the probe's time limit)")
        return replace(result, seconds=round(time.perf_counter() - start, 2)), False
    lines = [line for line in done.stdout.splitlines() if line.startswith(RESULT_MARKER)]
    if done.returncode == 0 and lines:
        return ProbeResult.from_json(json.loads(lines[-1][len(RESULT_MARKER):])), True
    tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-8:])
    result = _not_run(name, capability, f"the probe's process ended with status {done.returncode} and no result:\n{tail}")
    return replace(result, seconds=round(time.perf_counter() - start, 2)), False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the probes command.

    Args:
        argv: The arguments (default ``sys.argv[1:]``).

    Returns:
        The exit status: 0 when every probe reached its end, 1 when one did not, 2 without a GPU
        (and without ``--dry-run``) or without ``--out``.
    """
    args = build_parser().parse_args(argv)
    if args.child:
        return _child(args.child, args.device)
    if args.list:
        from benchmarks.probes import cell_ids

        for name in PROBES:
            probe = load(name).PROBE
            print(f"{name}: {probe.question}\n  cells: {', '.join(cell_ids(name))}\n  footnote: [^{probe.footnote}]")
        return 0
    if args.out is None:
        print("error: --out DIR is needed: the folder that gets probes.json", file=sys.stderr)
        return 2
    import torch

    if not args.dry_run and not torch.cuda.is_available():
        print(NO_GPU_MESSAGE, file=sys.stderr)
        return 2
    device = "cpu" if args.dry_run else "cuda"
    budget = args.budget if args.budget is not None else (DRY_BUDGET_S if args.dry_run else GPU_BUDGET_S)
    probe_limit = args.probe_limit if args.probe_limit is not None else (DRY_PROBE_LIMIT_S if args.dry_run else GPU_PROBE_LIMIT_S)
    capability = capability_of(device)
    stamp = environment_stamp(args.dry_run)
    start = time.perf_counter()
    results: list[ProbeResult] = []
    all_ended = True
    for name in args.probes or PROBES:
        left = budget - (time.perf_counter() - start)
        if left < MIN_START_S:
            results.append(_not_run(name, capability, f"not run: the run's budget of {budget:g} s was spent"))
            all_ended = False
            continue
        result, ended = _in_child(name, device, min(probe_limit, left), capability)
        all_ended &= ended
        decides = not args.dry_run and result.outcome != "undecided" and capability in NVIDIA_ROWS
        results.append(replace(result, decides=decides))
        print(f"{result.cell_id:34} {result.outcome:9} native={result.native!s:5} {result.seconds or 0:6.1f} s  "
              f"{result.evidence.splitlines()[0] if result.evidence else ''}", flush=True)
    report = {
        "schema": 1,
        "command": "python -m benchmarks.probes" + (" --dry-run" if args.dry_run else ""),
        "environment": stamp,
        "budget_s": budget,
        "probe_limit_s": probe_limit,
        "seconds": round(time.perf_counter() - start, 2),
        "probes": [r.to_json() for r in results],
    }
    if capability not in NVIDIA_ROWS:
        report["note"] = (f"compute capability {capability[0]}.{capability[1]} has no row in the support matrix: "
                          "the results are recorded but decide no cell")
    # the run's name and the digest of what it found (benchmarks.provenance), checked once committed
    report = provenance.seal(report, provenance.new_run({"date": stamp["date"], "device": "cpu dry run" if args.dry_run else "cuda"}),
                             "measured by python -m benchmarks.probes")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "probes.json"
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}" + ("" if all_ended else " (a probe did not reach its end: see its evidence)"))
    return 0 if all_ended else 1
