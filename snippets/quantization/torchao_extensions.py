"""torchao's compiled extensions: which files the wheel has, and what importing it says with the override set."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

# Found without importing torchao (the import itself is what is being checked).
folder = Path(importlib.util.find_spec("torchao").origin).parent
print("compiled extensions:", sorted(path.name for path in folder.glob("_C*.so")))


def notices(stderr):
    """torchao's lines about its extensions, each file named without its folder."""
    found = []
    for line in stderr.splitlines():
        if line.startswith("Failed to load "):
            found.append("Failed to load " + Path(line.split(": ")[0].removeprefix("Failed to load ")).name)
        elif "cpp extensions" in line:
            found.append(line)
    return sorted(found)


check = "import torchao; print('quantize_' in dir(torchao))"
for override in ("0", "1"):
    env = dict(os.environ, TORCHAO_FORCE_SKIP_LOADING_SO_FILES=override)
    run = subprocess.run([sys.executable, "-c", check], env=env, capture_output=True, text=True, check=True)
    print(f"TORCHAO_FORCE_SKIP_LOADING_SO_FILES={override}: imported {run.stdout.strip()}")
    print(*notices(run.stderr), sep="\n")
