"""Compiled cores beside their Python references: which path runs, and the one line that says so.

A compiled core is a C extension module built by ``pip install`` (setup.py, ``optional=True``:
a machine without a C compiler installs without it). The Python modules it mirrors stay the
reference and the fallback; `load` returns the compiled module or None, and the first time a
core is missing or refused it says so in one line on stderr.

``ZEROBOARD_PURE_PYTHON=1`` forces every pure-Python path (the tests run both). The packaged app
always carries the compiled cores: build.spec refuses to build without those in `COMPILED`.
Layers above games add their own cores with `register` (engine/core/native_tree.py: the search
tree), so this module never names them.
"""
from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

PURE_ENV = "ZEROBOARD_PURE_PYTHON"

#: compiled module -> (what it speeds up, the API_VERSION the Python side expects of it)
COMPILED = {
    "games._xiangqi_c": ("xiangqi rules", 6),
    "games._gomoku_c": ("gomoku rules", 2),
    "games._othello_c": ("othello rules", 1),
    "games._connect4_c": ("Connect Four rules", 2),
}

#: the largest magnitude a node budget may have and still be counted by a compiled solver (a C
#: ``long long``); a larger budget, or one that is not an int, runs the Python solver
BUDGET_LIMIT = 1 << 62


def fits_budget(budget) -> bool:
    """Whether a compiled solver can count ``budget`` (see `BUDGET_LIMIT`)."""
    return type(budget) is int and -BUDGET_LIMIT < budget < BUDGET_LIMIT


#: compiled module -> what runs in its place, where that is not a pure-Python path of it (the line said)
INSTEAD: dict[str, str] = {}


def register(name: str, what: str, version: int, instead: str | None = None) -> None:
    """Add the compiled module ``name`` (speeding up ``what``, built with ``API_VERSION`` ``version``)
    to `COMPILED`, for a layer above games that keeps its own compiled core; ``instead``: what
    runs where it is missing, when that is not a pure-Python version of it."""
    COMPILED[name] = (what, version)
    if instead is not None:
        INSTEAD[name] = instead


#: module -> why the pure-Python path runs instead of it (filled as modules are asked for)
_fallbacks: dict[str, str] = {}
_told = False


def pure_python_forced() -> bool:
    """Is the pure-Python path asked for by ``ZEROBOARD_PURE_PYTHON``?"""
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def load(name: str) -> ModuleType | None:
    """The compiled module ``name`` (one of `COMPILED`), or None when the pure-Python path must
    run: forced by ``ZEROBOARD_PURE_PYTHON``, not built, or built from other sources (its
    ``API_VERSION`` differs). Never raises for a missing or broken build."""
    if pure_python_forced():
        return _fall_back(name, f"{PURE_ENV} is set")
    module, reason = _import(name)
    return module if module is not None else _fall_back(name, reason)


def unbuilt() -> dict[str, str]:
    """Each module of `COMPILED` that cannot run here (not built, or built from other sources),
    with why; ``ZEROBOARD_PURE_PYTHON`` aside. build.spec refuses to package without them."""
    out = {}
    for name in COMPILED:
        module, reason = _import(name)
        if module is None:
            out[name] = reason
    return out


def _import(name: str) -> tuple[ModuleType | None, str]:
    """(the compiled module, "") or (None, why it cannot be used)."""
    version = COMPILED[name][1]
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            return None, f"{name} cannot be loaded ({e})"
        return None, f"{name} is not built (`pip install -e .` builds it where a C compiler is found)"
    except ImportError as e:   # built for another Python, or a damaged file
        return None, f"{name} cannot be loaded ({e})"
    found = getattr(module, "API_VERSION", None)
    if found != version:
        return None, (f"{name} was built from other sources (API_VERSION {found}, expected {version}); "
                      "`pip install -e .` rebuilds it")
    return module, ""


def _fall_back(name: str, reason: str) -> None:
    global _told
    _fallbacks[name] = reason
    if not _told:   # one line per process, however many cores fall back
        _told = True
        what = INSTEAD.get(name) or f"pure-Python {COMPILED[name][0]}"
        print(f"zeroboard: {what} (slower): {reason}", file=sys.stderr, flush=True)
    return None


def status() -> dict[str, str]:
    """For each compiled module asked for so far: "compiled" or why the pure-Python path runs."""
    return {name: _fallbacks.get(name, "compiled") for name in COMPILED if name in _fallbacks or name in sys.modules}
