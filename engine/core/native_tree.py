"""The compiled search tree (engine/core/_tree_c.c over engine/core/csrc/tree.c), or None.

`engine.core.mcts.Tree` walks down and backs up in C where this loads the module, and in its
own Python methods (the reference) otherwise. It is registered with `games.native`, which
decides which path runs (``ZEROBOARD_PURE_PYTHON``, a missing or stale build) and says so in
one line; build.spec and CI import this module so that the packaged app and CI require it too.
"""
from __future__ import annotations

from types import ModuleType

from games import native

MODULE = "engine.core._tree_c"
#: the API_VERSION engine/core/_tree_c.c must have
API_VERSION = 10

native.register(MODULE, "search tree", API_VERSION)


def load() -> ModuleType | None:
    """The compiled tree module, or None when the Python tree runs (said once, on stderr)."""
    return native.load(MODULE)
