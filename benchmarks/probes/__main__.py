"""``python -m benchmarks.probes --out DIR [--dry-run]``: settle the support matrix's GPU cells."""

from __future__ import annotations

import sys

from benchmarks.probes.cli import main

if __name__ == "__main__":
    sys.exit(main())
