"""``python -m reference_impl <command>``; the one command today is ``bench``."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Dispatch ``python -m reference_impl bench ...``.

    Args:
        argv: Arguments after the program name (default ``sys.argv[1:]``).

    Returns:
        The exit status.
    """
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help"):
        print("usage: python -m reference_impl bench [--quick] [--device cpu|cuda] [--out DIR] [--threads N] [--cases ...]")
        print("run 'python -m reference_impl bench --help' for the options")
        return 0 if args else 2
    if args[0] != "bench":
        print(f"error: unknown command {args[0]!r}; the command is 'bench'", file=sys.stderr)
        return 2
    from reference_impl.bench.cli import main as bench_main

    return bench_main(args[1:])


if __name__ == "__main__":
    sys.exit(main())
