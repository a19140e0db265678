"""Moved to :mod:`docs_tools.reflow_ja` (run `python -m docs_tools.reflow_ja`); kept so that old imports work."""

from docs_tools.reflow_ja import *  # noqa: F401,F403
from docs_tools.reflow_ja import reflow  # noqa: F401,E402
