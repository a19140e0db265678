"""Moved to :mod:`docs_tools.glossary` (run `python -m docs_tools.glossary`); kept so that old imports work."""

from docs_tools.glossary import *  # noqa: F401,F403
from docs_tools.glossary import SOURCE, TEXT, load, page_path, render, variant_problems  # noqa: F401,E402
