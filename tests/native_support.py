"""Shared by the compiled cores' tests: run code in a fresh interpreter (the module-level
choice between the compiled and the Python path is made at import), optionally with a compiled
module made unimportable, as on a machine where it was never built."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, **env) -> subprocess.CompletedProcess:
    """``code`` run by ``python -c`` from the project root with ``env`` added to the environment."""
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


def blocking(module: str) -> str:
    """Code that, run first, makes importing ``module`` fail as if it had never been built."""
    return ("import sys, importlib.abc\n"
            "class Block(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            f"        if name == {module!r}:\n"
            "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
            "sys.meta_path.insert(0, Block())\n")
