"""Moved to :mod:`docs_tools.translations` (run `python -m docs_tools.translations`); kept so that old imports work."""

from docs_tools.translations import *  # noqa: F401,F403
from docs_tools.translations import RECORD, current, digest, load, sections, stale, update  # noqa: F401,E402
