"""``python -m benchmarks [--quick] [--device cpu|cuda] ...``: the benchmark command."""

from __future__ import annotations

import sys

from benchmarks.cli import main

if __name__ == "__main__":
    sys.exit(main())
