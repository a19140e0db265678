"""``python -m reference_impl``: there is no command here any more; the benchmark moved."""

from __future__ import annotations

import sys

if __name__ == "__main__":
    print(
        "error: reference_impl has no command; the benchmark is now its own package: "
        "run `python -m benchmarks --help` from the repository root",
        file=sys.stderr,
    )
    sys.exit(2)
