"""Compiled cores beside their Python references: which path runs, and the one line that says so.

A compiled core is a C extension module built by ``pip install`` (setup.py, ``optional=True``:
a machine without a C compiler installs without it). The Python modules it mirrors stay the
reference and the fallback; `load` returns the compiled module or None, and the first time a
core is missing or refused it says so in one line on stderr.

``ZEROBOARD_PURE_PYTHON=1`` forces every pure-Python path (the tests run both). The packaged app
always carries the compiled cores: build.spec refuses to build without those in `COMPILED`.
"""
from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

PURE_ENV = "ZEROBOARD_PURE_PYTHON"

#: compiled module -> (what it speeds up, the API_VERSION the Python side expects of it)
COMPILED = {
    "games._xiangqi_c": ("xiangqi rules", 1),
}

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
    what, version = COMPILED[name]
    if pure_python_forced():
        return _fall_back(name, f"{PURE_ENV} is set")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            return _fall_back(name, f"{name} cannot be loaded ({e})")
        return _fall_back(name, f"{name} is not built (`pip install -e .` builds it where a C compiler is found)")
    except ImportError as e:   # built for another Python, or a damaged file
        return _fall_back(name, f"{name} cannot be loaded ({e})")
    if getattr(module, "API_VERSION", None) != version:
        return _fall_back(name, f"{name} was built from other sources (API_VERSION "
                                f"{getattr(module, 'API_VERSION', None)}, expected {version}); `pip install -e .` rebuilds it")
    return module


def _fall_back(name: str, reason: str) -> None:
    global _told
    _fallbacks[name] = reason
    if not _told:   # one line per process, however many cores fall back
        _told = True
        print(f"zeroboard: pure-Python {COMPILED[name][0]} (slower): {reason}", file=sys.stderr, flush=True)
    return None


def status() -> dict[str, str]:
    """For each compiled module asked for so far: "compiled" or why the pure-Python path runs."""
    return {name: _fallbacks.get(name, "compiled") for name in COMPILED if name in _fallbacks or name in sys.modules}
