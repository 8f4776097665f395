"""Install a ZeroBoard .deb into a throwaway root, start it the way the menu does, remove it.

  python tools/check_deb.py dist/zeroboard_0.1.0_amd64.deb [-- ARGS...]

1. checks the package's fields and that the libraries in its Depends are installed here;
2. installs it with `dpkg --root=DIR` into a fresh folder (its own dpkg database; nothing of this
   machine's system changes) and checks what it installed: the `zeroboard` command, the bundle,
   the menu entry (desktop-file-validate when installed), an icon for it, the licences;
3. runs the menu entry's Exec command from the installed /usr/bin with ARGS (default: --selftest)
   and without a display; it must exit 0;
4. purges the package and checks that nothing it installed is left in the root.
Prints one line a step; exits 1 with the reason at the first failure.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = "zeroboard"
DPKG_FORCE = ["--force-not-root", "--force-bad-path",
              # the throwaway root has no packages, so its database knows none of the dependencies;
              # step 1 checks them against this machine, whose libraries the installed app runs with
              "--force-depends"]


class CheckFailed(Exception):
    pass


def sh(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise CheckFailed(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc


def fields(deb: Path) -> dict[str, str]:
    text = sh(["dpkg-deb", "--field", str(deb)]).stdout
    return dict(re.findall(r"^([A-Za-z-]+): (.*)$", text, re.M))


def check_depends(depends: str) -> list[str]:
    """Each dependency ("a (>= 1) | b, c") satisfied by a package installed here; returns them."""
    met = []
    for group in filter(None, (g.strip() for g in depends.split(","))):
        for alternative in group.split("|"):
            m = re.fullmatch(r"\s*([a-z0-9.+-]+)(?::\w+)?\s*(?:\(\s*(<<|<=|=|>=|>>)\s*([^)\s]+)\s*\))?\s*", alternative)
            if not m:
                raise CheckFailed(f"cannot read the dependency {alternative!r}")
            name, op, version = m.groups()
            q = subprocess.run(["dpkg-query", "-W", "-f", "${Status} ${Version}", name], capture_output=True, text=True)
            parts = q.stdout.split()
            if q.returncode != 0 or "installed" not in parts[:3]:
                continue
            if op and subprocess.run(["dpkg", "--compare-versions", parts[-1], {"<<": "lt", "<=": "le", "=": "eq",
                                      ">=": "ge", ">>": "gt"}[op], version]).returncode != 0:
                continue
            met.append(f"{name} {parts[-1]}")
            break
        else:
            raise CheckFailed(f"the dependency {group!r} is not met on this machine")
    return met


def make_root(folder: Path) -> Path:
    root = folder / "root"
    admin = root / "var/lib/dpkg"
    for sub in ("info", "updates", "triggers"):
        (admin / sub).mkdir(parents=True)
    (admin / "status").touch()
    return root


def dpkg(root: Path, log: Path, *args: str) -> subprocess.CompletedProcess:
    return sh(["dpkg", f"--root={root}", f"--log={log}", *DPKG_FORCE, *args])


def desktop_entry(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0] != "[Desktop Entry]":
        raise CheckFailed(f"{path} does not start with [Desktop Entry]")
    return dict(line.split("=", 1) for line in lines[1:] if "=" in line and not line.startswith("#"))


def check_installed(root: Path) -> Path:
    """The installed files; returns the command the menu entry starts, as found in the root's /usr/bin."""
    command = root / "usr/bin" / PACKAGE
    if not command.is_symlink() or not command.resolve().is_file() or not os.access(command, os.X_OK):
        raise CheckFailed(f"/usr/bin/{PACKAGE} is not a link to an executable")
    if not command.resolve().is_relative_to(root):
        raise CheckFailed(f"/usr/bin/{PACKAGE} points outside the installed tree: {os.readlink(command)}")
    entry_path = root / f"usr/share/applications/{PACKAGE}.desktop"
    if not entry_path.is_file():
        raise CheckFailed("no menu entry in /usr/share/applications")
    validator = shutil.which("desktop-file-validate")
    if validator:
        out = sh([validator, str(entry_path)]).stdout.strip()
        if out:
            raise CheckFailed(f"desktop-file-validate: {out}")
    entry = desktop_entry(entry_path)
    for key, want in (("Type", "Application"), ("Terminal", "false")):
        if entry.get(key) != want:
            raise CheckFailed(f"the menu entry's {key} is {entry.get(key)!r}, not {want!r}")
    icons = list((root / "usr/share/icons/hicolor").glob(f"*/apps/{entry.get('Icon')}.png"))
    if len(icons) < 3:
        raise CheckFailed(f"the menu entry's icon {entry.get('Icon')!r} is installed at {len(icons)} sizes")
    copyright_ = (root / f"usr/share/doc/{PACKAGE}/copyright").read_text(encoding="utf-8")
    if "License: MIT" not in copyright_ or "Libraries in the packaged app" not in copyright_:
        raise CheckFailed("the copyright file lacks the MIT licence or THIRD_PARTY_LICENSES.md")
    exec_ = shlex.split(entry.get("Exec", ""))
    if not exec_ or "/" in exec_[0]:
        raise CheckFailed(f"the menu entry's Exec is not a command on PATH: {entry.get('Exec')!r}")
    found = root / "usr/bin" / exec_[0]
    if not found.exists():
        raise CheckFailed(f"the menu entry's command {exec_[0]!r} is not in /usr/bin")
    print(f"check_deb: installed {len(icons)} icon sizes, the menu entry "
          f"({'desktop-file-validate: valid' if validator else 'desktop-file-validate not installed; fields checked'})"
          f", /usr/bin/{PACKAGE} -> {os.readlink(command)}")
    return found


def leftovers(root: Path) -> list[str]:
    """What is in the root besides dpkg's own database and empty folders."""
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if not p.relative_to(root).as_posix().startswith("var/lib/dpkg")
                  and (not p.is_dir() or p.is_symlink()))


def check(deb: Path, args: list[str], timeout: float = 900) -> None:
    info = fields(deb)
    for key in ("Package", "Version", "Architecture", "Maintainer", "Installed-Size", "Description"):
        if not info.get(key):
            raise CheckFailed(f"the package has no {key} field")
    met = check_depends(info.get("Depends", ""))
    print(f"check_deb: {info['Package']} {info['Version']} {info['Architecture']}, "
          f"Installed-Size {int(info['Installed-Size']) / 1024:.0f} MiB, Depends met here: {', '.join(met) or 'none'}")
    with tempfile.TemporaryDirectory(prefix="zeroboard-root-") as tmp:
        root, log = make_root(Path(tmp)), Path(tmp) / "dpkg.log"
        dpkg(root, log, "--install", str(deb))
        status = sh(["dpkg-query", f"--admindir={root}/var/lib/dpkg", "-W", "-f", "${Status}", PACKAGE]).stdout
        if status != "install ok installed":
            raise CheckFailed(f"after dpkg --install the package is {status!r}")
        verify = subprocess.run(["dpkg", f"--root={root}", "--verify", PACKAGE], capture_output=True, text=True)
        if verify.returncode != 0 or verify.stdout.strip():
            raise CheckFailed(f"dpkg --verify: {verify.stdout}{verify.stderr}")
        command = check_installed(root)
        env = dict(os.environ, PATH=f"{root / 'usr/bin'}{os.pathsep}{os.environ.get('PATH', '')}",
                   SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", ZEROBOARD_HOME=str(Path(tmp) / "home"))
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        try:
            run = subprocess.run([str(command), *args], capture_output=True, text=True, env=env, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"{command.name} {' '.join(args)} did not finish in {timeout:.0f} s") from None
        if run.returncode != 0:
            raise CheckFailed(f"the installed {command.name} {' '.join(args)} exited {run.returncode}:\n"
                              f"{run.stdout[-3000:]}{run.stderr[-3000:]}")
        where = ""
        try:  # the self-test's summary names the executable that ran
            where = f" (ran {json.loads(run.stdout)['executable']})"
        except (ValueError, KeyError, TypeError):
            pass
        print(f"check_deb: the installed command `{command.name} {' '.join(args)}` exited 0{where}")
        dpkg(root, log, "--purge", PACKAGE)
        left = leftovers(root)
        if left:
            raise CheckFailed(f"after dpkg --purge {len(left)} paths are left, e.g. {left[:5]}")
        status = subprocess.run(["dpkg-query", f"--admindir={root}/var/lib/dpkg", "-W", PACKAGE],
                                capture_output=True, text=True)
        if status.returncode == 0 and status.stdout.strip():
            raise CheckFailed(f"after dpkg --purge the database still lists {status.stdout.strip()!r}")
        print("check_deb: purged; nothing is left in the root")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    deb, rest = Path(argv[0]), argv[1:]
    if rest[:1] == ["--"]:
        rest = rest[1:]
    if not deb.is_file():
        print(f"check_deb: no such package {deb}", file=sys.stderr)
        return 1
    for tool in ("dpkg", "dpkg-deb", "dpkg-query"):
        if shutil.which(tool) is None:
            print(f"check_deb: {tool} is not installed", file=sys.stderr)
            return 1
    try:
        check(deb, rest or ["--selftest"])
    except CheckFailed as e:
        print(f"check_deb: FAILED: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
