"""``python -m benchmarks``: the command line of the benchmark."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from benchmarks.cases import ALL_CASES
from benchmarks.config import BenchConfig
from benchmarks.report import case_json_files, render_markdown, render_tables
from benchmarks.published import beside_published
from benchmarks.runner import run_bench
from reference_impl.errors import ConfigError

__all__ = ["build_parser", "main"]


def build_parser(prog: str = "python -m benchmarks") -> argparse.ArgumentParser:
    """The argument parser of the bench command.

    Args:
        prog: Program name shown in ``--help``.

    Returns:
        The parser.
    """
    p = argparse.ArgumentParser(
        prog=prog,
        description="Measure dtype storage, matmul, int8 quantization, AMP and reference implementations "
        "on this machine; write JSON and markdown tables (English <case>.md, Japanese <case>.ja.md) "
        "with the environment stamp. --render-only rewrites both tables from the JSON and measures nothing.",
    )
    p.add_argument("--quick", action="store_true", help="fewer, shorter rounds and no torch.compile (CI)")
    p.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    p.add_argument("--out", type=Path, default=None, help="output folder (default benchmarks/results/<device>)")
    p.add_argument("--threads", type=int, default=1, help="threads while measuring (default 1)")
    p.add_argument("--cases", nargs="+", choices=sorted(ALL_CASES), metavar="CASE",
                   help=f"cases to run (default: all for the device): {', '.join(ALL_CASES)}")
    p.add_argument("--rounds", type=int, default=None, help="alternating rounds per comparison (quick 5, full 9)")
    p.add_argument("--min-time", type=float, default=None, help="seconds per measurement (quick 0.05, full 0.25)")
    p.add_argument("--print", dest="print_tables", action="store_true", help="also print every table")
    p.add_argument(
        "--dry-run", action="store_true",
        help="with --device cuda and --out: run the GPU cases end to end on a CPU stand-in (tiny sizes, a CPU "
        "timer), to check that they run before a GPU is at hand; the figures mean nothing",
    )
    p.add_argument(
        "--render-only", action="store_true",
        help="measure nothing: rewrite every <case>.md and <case>.ja.md of the results folder "
        "(--out, default benchmarks/results/<device>) from its committed <case>.json",
    )
    return p


def _render_only(folder: Path) -> int:
    if not folder.is_dir():
        print(f"error: no results folder {folder}; run the benchmark first or pass --out", file=sys.stderr)
        return 2
    written = [path for json_path in case_json_files(folder) for path in render_tables(json_path)]
    for path in written:
        print(f"wrote {path}")
    if not written:
        print(f"no <case>.json in {folder}: nothing to render")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bench command.

    Args:
        argv: The arguments (default ``sys.argv[1:]``).

    Returns:
        The exit status (0 on success, 2 on a configuration error).
    """
    args = build_parser().parse_args(argv)
    if args.render_only:
        return _render_only(args.out if args.out is not None else Path("benchmarks") / "results" / args.device)
    if args.dry_run and (args.out is None or args.device != "cuda"):
        print("error: --dry-run needs --device cuda and an --out folder (it never writes over the published results)",
              file=sys.stderr)
        return 2
    try:
        cfg = BenchConfig.make(
            device=args.device, quick=args.quick or args.dry_run, rounds=args.rounds, min_time=args.min_time,
            threads=args.threads, stand_in=args.dry_run,
        )
        out = args.out if args.out is not None else Path("benchmarks") / "results" / args.device
        results = run_bench(cfg, out, args.cases, log=lambda line: print(line, file=sys.stderr, flush=True))
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    env = json.loads((out / "environment.json").read_text(encoding="utf-8"))["environment"]
    noisy = {name: r.too_noisy for name, r in results.items() if r.too_noisy}
    for name, result in results.items():
        # on a GPU the matmul table is the point of the run: its % of the data-sheet peak shows at once
        # whether the reader's card performs as it should
        if args.print_tables or name == "environment" or (cfg.device == "cuda" and name == "gpu_matmul"):
            print(f"\n## {result.title} ({name})\n")
            print(render_markdown(result.to_json(env)))
    print(f"results written to {out}/")
    if cfg.device == "cpu":
        for line in beside_published(results, env):
            print(line)
    if noisy:
        print("too noisy to publish (spread > limit): " + " | ".join(f"{k}: {'; '.join(v)}" for k, v in noisy.items()))
    return 0
