"""Moved to :mod:`docs_tools.docs_model` (the docs build uses it too); kept so that old imports work."""

from docs_tools.docs_model import *  # noqa: F401,F403
from docs_tools.docs_model import _is_cjk  # noqa: F401
