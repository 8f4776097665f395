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


# --- which path runs: the checks every compiled core's tests make ------------------------------
# ``play`` is code that prints whether the module's compiled core is None, then what a few rules
# calls answered (``played``): the same on both paths.

def check_forced_python(play: str, played: str) -> None:
    """With ZEROBOARD_PURE_PYTHON=1 the Python rules run, and one line on stderr says so."""
    out = run_python(play, ZEROBOARD_PURE_PYTHON="1")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "True " + played, out.stdout
    assert out.stderr.count("\n") == 1 and "pure-Python" in out.stderr and "ZEROBOARD_PURE_PYTHON" in out.stderr


def check_unbuilt(module: str, play: str, played: str, said: str) -> None:
    """Where ``module`` cannot be imported (never built) the Python rules run, one line on stderr
    (naming the rules: ``said``) says so, and `games.native.status` tells why."""
    out = run_python(blocking(module) + play + "\nfrom games import native; print(native.status())",
                     ZEROBOARD_PURE_PYTHON="")
    assert out.returncode == 0, out.stderr
    first, status = out.stdout.splitlines()[:2]
    assert first == "True " + played, first
    assert out.stderr.count("\n") == 1 and said in out.stderr and "not built" in out.stderr, out.stderr
    assert module in status and "not built" in status, status


def check_silent(play: str, played: str) -> None:
    """Built, the compiled core runs and nothing is said."""
    out = run_python(play, ZEROBOARD_PURE_PYTHON="")
    assert out.returncode == 0 and out.stdout.splitlines()[0] == "False " + played, out
    assert out.stderr == ""


def check_stale_refused(module: str, said: str, monkeypatch, capsys) -> None:
    """A build of ``module`` from other sources (another API_VERSION) is refused, said once."""
    from games import native

    class Stale:
        API_VERSION = -1
    monkeypatch.setitem(sys.modules, module, Stale)
    monkeypatch.setattr(native, "_told", False)
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert native.load(module) is None
    err = capsys.readouterr().err
    assert "other sources" in err and said in err and err.count("\n") == 1, err
    assert native.load(module) is None and capsys.readouterr().err == ""
