"""Create the project's virtual environment, install exactly the tested versions into it once,
then run the app or the tests with it. Standard library only; never touches the interpreter
that runs it.

    python3 tools/bootstrap.py play [ARGS...]   # install what the app needs, then open it
    python3 tools/bootstrap.py test [ARGS...]   # install the test tools too, then run pytest
    python3 tools/bootstrap.py install [--extras dev,package]

Installs happen only when something they depend on changed (pyproject.toml, setup.py,
requirements.lock, the C sources and headers under games/ and engine/, the extras asked for, the torch build,
the Python version) or a compiled core built before has gone: a stamp in the environment
records what was installed, so the second start runs no pip at all. The compiled cores
(setup.py) build where a C compiler is found; elsewhere the install goes on without them and
the app runs its pure-Python rules (games/native.py says so in one line).

torch is the CPU build by default on Linux and Windows (PyTorch's CPU wheel index, consulted
for torch alone, so a machine that cannot reach it does not wait on it for every package);
macOS takes the normal wheels, which are CPU builds there. ``ZEROBOARD_TORCH_INDEX=URL``
picks another index (for example a CUDA one), ``ZEROBOARD_TORCH_INDEX=pypi`` PyPI's default
build. ``ZEROBOARD_VENV`` names another environment folder (default ``.venv``).
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
STAMP = "zeroboard-install.json"


def venv_dir() -> Path:
    return (ROOT / os.environ.get("ZEROBOARD_VENV", ".venv")).resolve()


def venv_python(env: Path) -> Path:
    return env / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def torch_index() -> str | None:
    """The index torch comes from: PyTorch's CPU index on Linux and Windows, PyPI elsewhere."""
    chosen = os.environ.get("ZEROBOARD_TORCH_INDEX", "").strip()
    if chosen.lower() == "pypi":
        return None
    if chosen:
        return chosen
    return None if sys.platform == "darwin" else CPU_INDEX


def locked_lines() -> list[str]:
    return [line.strip() for line in LOCK.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def torch_requirement(index: str | None) -> str:
    """``torch==VERSION`` from the lock: the ``+cpu`` build from the CPU index, else the plain
    version, which any build of that release satisfies."""
    for line in locked_lines():
        name, _, rest = line.partition("==")
        if name.strip().lower() == "torch":
            version = rest.split(";")[0].strip().split("+")[0]
            return f"torch=={version}+cpu" if index == CPU_INDEX else f"torch=={version}"
    raise SystemExit("requirements.lock names no torch version")


def build_inputs() -> list[Path]:
    """The files an install is built from: a change in any of them reinstalls (and rebuilds the
    compiled cores)."""
    return ([ROOT / "pyproject.toml", ROOT / "setup.py", LOCK] + sorted(ROOT.glob("games/**/*.[ch]"))
            + sorted(ROOT.glob("engine/**/*.[ch]")))


def compiled_cores() -> list[str]:
    """The compiled core files the last build left beside their sources (games/*.so, engine/core/*.so, *.pyd)."""
    return sorted(p.name for pattern in ("games/*.so", "games/*.pyd", "engine/core/*.so", "engine/core/*.pyd")
                  for p in ROOT.glob(pattern))


def wanted_stamp(extras: set[str], index: str | None) -> dict:
    digest = hashlib.sha256()
    for path in build_inputs():
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return {"inputs": digest.hexdigest(), "extras": sorted(extras), "torch_index": index or "pypi",
            "python": platform.python_version(), "platform": sys.platform}


def installed_stamp(env: Path) -> dict | None:
    try:
        return json.loads((env / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def create_env(env: Path) -> None:
    print(f"bootstrap: creating the project environment in {env}", flush=True)
    try:
        venv.EnvBuilder(with_pip=True, upgrade_deps=False).create(env)
    except (subprocess.CalledProcessError, OSError) as e:
        raise SystemExit(f"bootstrap: could not create {env} ({e}). On Debian or Ubuntu install the "
                         "venv module first: sudo apt install python3-venv") from None


def pip(env: Path, *args: str) -> None:
    cmd = [str(venv_python(env)), "-m", "pip", *args]
    print("bootstrap: " + " ".join(cmd[1:]), flush=True)
    subprocess.run(cmd, check=True, cwd=ROOT)


def ensure_installed(extras: set[str]) -> Path:
    """The environment with the project and ``extras`` installed at the locked versions."""
    env = venv_dir()
    index = torch_index()
    if not venv_python(env).exists():
        create_env(env)
    have = installed_stamp(env)
    want = wanted_stamp(extras, index)
    if have is not None:
        kept = ("extras", "compiled")   # what an install adds to the stamp beyond its inputs
        same = {k: v for k, v in have.items() if k not in kept} == {k: v for k, v in want.items() if k not in kept}
        # a compiled core built then and gone since (a cleaned checkout) is built again
        built = set(have.get("compiled", [])) <= set(compiled_cores())
        if same and built and extras <= set(have.get("extras", [])):
            return env
        if same:   # only more extras asked for: keep the ones installed before
            extras = extras | set(have.get("extras", []))
            want = wanted_stamp(extras, index)
    (env / STAMP).unlink(missing_ok=True)
    quiet = ["-q", "--disable-pip-version-check"]
    # torch alone first, with its index: an unreachable index then costs one package's retries
    torch_args = ["install", *quiet, "--no-deps", torch_requirement(index)]
    if index:
        torch_args += ["--extra-index-url", index, "--retries", "2", "--timeout", "20"]
    pip(env, *torch_args)
    # then the project (editable, so `zeroboard` runs this checkout) and everything else, at the
    # lock's versions; torch is already there and satisfies the project's range
    constraints = env / "zeroboard-constraints.txt"
    constraints.write_text("\n".join(l for l in locked_lines() if not l.lower().startswith("torch")) + "\n",
                           encoding="utf-8")
    target = "." + (f"[{','.join(sorted(extras))}]" if extras else "")
    pip(env, "install", *quiet, "-c", str(constraints), "-e", target)
    (env / STAMP).write_text(json.dumps({**want, "compiled": compiled_cores()}, indent=1) + "\n", encoding="utf-8")
    return env


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    command, rest = argv[0], argv[1:]
    if command == "install":
        extras = set()
        if rest[:1] == ["--extras"] and len(rest) > 1:
            extras = {e.strip() for e in rest[1].split(",") if e.strip()}
        ensure_installed(extras)
        return 0
    if command == "play":
        env = ensure_installed(set())
        return subprocess.call([str(venv_python(env)), "main.py", *rest], cwd=ROOT)
    if command == "test":
        env = ensure_installed({"dev"})
        run_env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        return subprocess.call([str(venv_python(env)), "-m", "pytest", "-q", "tests", *rest], cwd=ROOT, env=run_env)
    print(f"bootstrap: unknown command {command!r} (play, test or install)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
