"""Moved to :mod:`docs_tools.warning_policy` (the docs build uses it too); kept for old imports."""

from docs_tools.warning_policy import *  # noqa: F401,F403
from docs_tools.warning_policy import ALLOWED, AllowedWarning, install, pytest_filterwarnings_lines, pythonwarnings_env  # noqa: F401
