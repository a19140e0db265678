"""Run one Python block from a page the way a reader would run it as a script.

* ``__name__ == "__main__"`` (a fresh module is installed as ``__main__``, so
  ``if __name__ == "__main__":`` bodies run and block-defined classes pickle);
* warnings are errors, except tests/support/warning_policy.py's allow-list;
* torch's global state is reset first, so blocks do not leak into each other;
* line numbers in tracebacks point at the Markdown file.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import random
import sys
import types
import warnings

from tests.support import warning_policy

_DEFAULTS: dict = {}


def reset_global_state() -> None:
    import numpy as np
    import torch

    if not _DEFAULTS:
        _DEFAULTS["engine"] = torch.backends.quantized.engine
        _DEFAULTS["threads"] = torch.get_num_threads()
    torch.set_default_dtype(torch.float32)
    torch.set_printoptions(profile="default", sci_mode=None)
    torch.set_grad_enabled(True)
    torch.use_deterministic_algorithms(False)
    torch.backends.quantized.engine = _DEFAULTS["engine"]
    torch.set_num_threads(_DEFAULTS["threads"])
    torch.manual_seed(0)
    random.seed(0)
    np.random.seed(0)
    try:
        import matplotlib.pyplot as plt

        plt.close("all")
    except ImportError:
        pass


def run_block(code: str, filename: str, first_line: int = 1) -> str:
    """Execute ``code`` and return what it printed to stdout."""
    reset_global_state()
    module = types.ModuleType("__main__")
    module.__dict__.update(__file__=filename, __builtins__=builtins)
    saved_main = sys.modules["__main__"]
    sys.modules["__main__"] = module
    stdout = io.StringIO()
    compiled = compile("\n" * (first_line - 1) + code, filename, "exec")
    try:
        with warnings.catch_warnings():
            warning_policy.install()
            with contextlib.redirect_stdout(stdout):
                exec(compiled, module.__dict__)
    finally:
        sys.modules["__main__"] = saved_main
    return stdout.getvalue()
