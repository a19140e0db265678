"""The numeric checks also pass with the kernels of an older CPU (AVX2, no VNNI).

PyTorch (ATen), FBGEMM and MKL each pick their kernels from the CPU's
instruction set, and each has a switch to pick an older set on a newer CPU.
This test reruns the reference-vs-PyTorch checks in a subprocess with all three
limited to AVX2, so that a drift or a saturation (int8 pair sums clamped to
int16 without VNNI) shows up here before CI meets an AVX2-only machine.
(oneDNN's switch is left out: see .ci/test-avx2 for why.)

The whole suite can be run that way too: ``bash .ci/test-avx2``.
"""

from __future__ import annotations

import os
import subprocess
import sys

from docs_tools.docs_model import REPO
from tests.support.shared_cache import inputs_key, passed_before, record_pass

AVX2_DISPATCH = {
    "ATEN_CPU_CAPABILITY": "avx2",
    "FBGEMM_ENABLE_INSTRUCTIONS": "AVX2",
    "MKL_ENABLE_INSTRUCTIONS": "AVX2",
}

NUMERIC_CHECKS = [
    "tests/test_quantization_affine.py",
    "tests/test_quantization_dynamic.py",
    "tests/test_quantization_compare.py",
    "tests/test_storage_rounding.py",
    "tests/test_amp_grad_scaler.py",
]


def test_numeric_checks_pass_with_avx2_kernels(tmp_path):
    # What the run reads: the checks, what they import (reference_impl, docs_tools, tests/support,
    # conftest), the project's settings; with the installed packages, the Python and the CPU class.
    # A run that passed is not repeated while none of it changes (45 s on 2 cores).
    key = inputs_key(("reference_impl", "docs_tools", "tests/support", "tests/conftest.py", "tests/__init__.py",
                      "pyproject.toml", "constraints.txt", *NUMERIC_CHECKS), repr(sorted(AVX2_DISPATCH.items())),
                     os.environ.get("ONEDNN_MAX_CPU_ISA", ""))
    if passed_before("isa-dispatch-avx2", key):
        return
    env = dict(os.environ, **AVX2_DISPATCH)
    probe = subprocess.run(
        [sys.executable, "-c", "import torch; print(torch.backends.cpu.get_cpu_capability())"],
        env=env, capture_output=True, text=True, check=True,
    )
    assert probe.stdout.strip() in {"AVX2", "DEFAULT"}, f"the dispatch switch did not take: {probe.stdout}"
    # -p no:benchmark: a machine's pytest-benchmark plugin (the GPU machine has one) warns at startup
    # ("Benchmarks are automatically disabled because xdist plugin is active") and warnings are
    # errors; pytest accepts the switch whether the plugin is installed or not.
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "no:benchmark",
         f"--basetemp={tmp_path / 'avx2'}", *NUMERIC_CHECKS],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, f"numeric checks fail with AVX2 kernels:\n{proc.stdout[-6000:]}\n{proc.stderr[-2000:]}"
    record_pass("isa-dispatch-avx2", key)
