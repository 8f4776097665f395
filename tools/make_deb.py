"""Build the Debian package dist/zeroboard_<version>_<arch>.deb from the one-folder bundle
(`make deb`, which builds the bundle first with `make package`).

The package installs
  /usr/lib/zeroboard/                  the bundle (dist/ZeroBoard) as it is
  /usr/bin/zeroboard                   a relative symbolic link to its executable (PyInstaller's
                                       bootloader finds its folder through /proc/self/exe)
  /usr/share/applications/zeroboard.desktop   the menu entry (assets/zeroboard.desktop, Exec=zeroboard)
  /usr/share/icons/hicolor/NxN/apps/zeroboard.png   the icons (assets/icons/zeroboard-N.png)
  /usr/share/doc/zeroboard/copyright   LICENSE, the fonts' OFL and THIRD_PARTY_LICENSES.md
  /usr/share/doc/zeroboard/licenses/   the licence files of the bundled Python packages
and has no maintainer scripts: Debian's icon-cache and desktop-database triggers see the new files.
Depends lists the system libraries the bundle's ELF files need and do not carry (glibc, with the
newest symbol version they ask for). Needs dpkg-deb and readelf (binutils).

Run: python tools/make_deb.py [--bundle dist/ZeroBoard] [--out dist] [--compress xz]
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "zeroboard"
INSTALL_DIR = "usr/lib/zeroboard"
EXECUTABLE = "ZeroBoard"
MAINTAINER = "ZeroBoard authors <zeroboard@users.invalid>"
SUMMARY = "six board games against AIs that taught themselves"
DESCRIPTION = """\
ZeroBoard plays tic-tac-toe, connect 2, connect four, othello, gomoku and
xiangqi (Chinese chess) against AIs trained by self-play in the manner of
AlphaZero, explains the AI's thinking, and trains new models on the
computer it runs on. It also speaks the UCI, UCCI, NBoard and Gomocup
protocols, so its AI can play inside other programs."""
GLIBC_SONAMES = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libutil.so.1",
                 "libresolv.so.2", "libanl.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1",
                 "ld-linux-armhf.so.3", "ld-linux.so.2"}
# libraries SDL (in pygame-ce) opens at run time when they are there, not ELF dependencies:
# a window needs X11 or Wayland, sound ALSA or PulseAudio; without them the app has no window
# or no sound, while the command-line commands and engines work
RECOMMENDS = "libx11-6 | libwayland-client0, libasound2 | libpulse0"


class DebError(Exception):
    """The package cannot be built; the message says why."""


def app_version() -> str:
    """engine.core.paths.__version__, read without importing the app."""
    tree = ast.parse((ROOT / "engine" / "core" / "paths.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__version__" for t in node.targets):
            return ast.literal_eval(node.value)
    raise DebError("engine/core/paths.py has no __version__")


def debian_version(version: str) -> str:
    """A PEP 440 version as Debian orders it: pre-releases sort before the release (1.0~rc1 < 1.0)."""
    out = re.sub(r"(?<=\d)[.-]?(a|b|rc|dev)(?=\d|$)", r"~\1", version.strip())
    if not re.fullmatch(r"[0-9][A-Za-z0-9.+~]*", out):
        raise DebError(f"version {version!r} cannot be a Debian version")
    return out


def run(cmd: list[str], **kw) -> str:
    if shutil.which(cmd[0]) is None:
        package = {"readelf": "binutils", "ldconfig": "libc-bin"}.get(cmd[0], "dpkg")
        raise DebError(f"{cmd[0]} is not installed (Debian: apt-get install {package})")
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        raise DebError(f"{' '.join(cmd[:3])} failed: {proc.stderr.strip() or proc.stdout.strip()}")
    return proc.stdout


def elf_files(folder: Path) -> list[Path]:
    out = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            with open(path, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    out.append(path)
    return out


def _version_key(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split(".") if x.isdigit())


def system_needs(folder: Path) -> tuple[set[str], str | None]:
    """(sonames the bundle's ELF files need and the bundle does not carry, newest GLIBC_ version asked).
    The libraries the bundle carries compressed (packed_libs.json, engine/core/packedlib.py) count as
    carried, and what they need counts too: each is unpacked into a temporary folder and read."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))   # the app's code, which a script run from tools/ does not see
    from engine.core.packedlib import MANIFEST, read_manifest, unpack
    carried = {p.name for p in folder.rglob("*")}
    with tempfile.TemporaryDirectory(prefix="zeroboard-deb-") as tmp:
        packed = []
        for manifest in folder.rglob(MANIFEST):
            for name, entry in read_manifest(manifest.parent).libraries.items():
                carried.add(name)
                packed.append(unpack(manifest.parent, name, entry, Path(tmp)))
        return _needs(elf_files(folder) + packed, carried)


def _needs(files: list[Path], carried: set[str]) -> tuple[set[str], str | None]:
    needed, glibc = set(), []
    for path in files:
        text = run(["readelf", "-d", "-V", "-W", str(path)])
        needed |= set(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", text))
        glibc += re.findall(r"Name: GLIBC_([0-9.]+)", text)
    newest = max(glibc, key=_version_key) if glibc else None
    return needed - carried, newest


def _owner(soname: str) -> str:
    """The installed Debian package that provides the library ``soname`` on this machine."""
    paths = [line.rsplit("=>", 1)[1].strip() for line in run(["ldconfig", "-p"]).splitlines()
             if line.strip().startswith(soname + " ")]
    for path in paths:
        for candidate in {path, os.path.realpath(path), re.sub(r"^/usr(?=/lib)", "", path),
                          re.sub(r"^/lib", "/usr/lib", path)}:
            proc = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
            if proc.returncode == 0:
                return proc.stdout.split(":", 1)[0].strip()
    raise DebError(f"the bundle needs {soname} from the system, and no installed package provides it")


def depends(folder: Path) -> str:
    sonames, glibc = system_needs(folder)
    packages = {"libc6" if s in GLIBC_SONAMES else _owner(s) for s in sonames}
    if glibc:
        packages.add("libc6")
    return ", ".join(f"libc6 (>= {glibc})" if p == "libc6" and glibc else p for p in sorted(packages))


def desktop_entry() -> str:
    """assets/zeroboard.desktop with the installed command."""
    text = (ROOT / "assets" / "zeroboard.desktop").read_text(encoding="utf-8")
    if not re.search(r"^Exec=", text, re.M):
        raise DebError("assets/zeroboard.desktop has no Exec line")
    return re.sub(r"^Exec=.*$", f"Exec={PACKAGE}", text, flags=re.M)


def _paragraph_text(text: str) -> str:
    """Free text as a Debian control field's continuation lines (empty lines as ' .')."""
    return "\n".join(" " + line if line.strip() else " ." for line in text.strip("\n").splitlines())


def copyright_text() -> str:
    """/usr/share/doc/zeroboard/copyright in Debian's machine-readable format."""
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    holder = next((re.sub(r"^\(c\)\s*", "", l.split("Copyright", 1)[1].strip(), flags=re.I)
                   for l in licence.splitlines() if l.startswith("Copyright")), "the ZeroBoard authors")
    ofl = (ROOT / "assets" / "fonts" / "OFL.txt").read_text(encoding="utf-8")
    third = (ROOT / "THIRD_PARTY_LICENSES.md").read_text(encoding="utf-8")
    return (f"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
            f"Upstream-Name: ZeroBoard\n"
            f"Comment: The bundle in /{INSTALL_DIR} carries Python and the libraries listed below\n"
            f" (THIRD_PARTY_LICENSES.md); the licence files of the bundled Python packages are in\n"
            f" /usr/share/doc/{PACKAGE}/licenses/.\n .\n{_paragraph_text(third)}\n\n"
            f"Files: *\nCopyright: {holder}\nLicense: MIT\n{_paragraph_text(licence)}\n\n"
            f"Files: {INSTALL_DIR}/_internal/pygame/* {INSTALL_DIR}/_internal/pygame_ce.libs/*\n"
            f"Copyright: the pygame-ce contributors\nLicense: LGPL-2.1+\n"
            f" pygame-ce is free software under the GNU Lesser General Public License, version 2.1\n"
            f" or later, used here as separate, replaceable shared libraries. On Debian systems the\n"
            f" licence's text is in /usr/share/common-licenses/LGPL-2.1.\n\n"
            f"Files: {INSTALL_DIR}/_internal/assets/fonts/*\n"
            f"Copyright: Adobe (https://www.adobe.com/), Google\nLicense: OFL-1.1\n{_paragraph_text(ofl)}\n")


def bundled_packages() -> set[str]:
    """The third-party top-level packages build.spec bundles (its KEEP_PACKAGES), read without running it."""
    for node in ast.parse((ROOT / "build.spec").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "KEEP_PACKAGES" for t in node.targets):
            return set(ast.literal_eval(node.value))
    raise DebError("build.spec has no KEEP_PACKAGES")


LICENCE_NAME = re.compile(r"(LICEN[CS]E|COPYING|NOTICE|AUTHORS|ThirdPartyNotices)", re.I)


def bundled_licence_files() -> dict[str, list[tuple[str, Path]]]:
    """distribution name -> [(path under its folder, file)]: the licence files of the installed
    distributions whose packages the bundle carries (run with the environment that built it)."""
    from importlib.metadata import distributions
    keep = bundled_packages()
    out: dict[str, list[tuple[str, Path]]] = {}
    for dist in distributions():
        files = dist.files or []
        tops = set((dist.read_text("top_level.txt") or "").split())
        tops |= {f.parts[0].removesuffix(".py") for f in files if not f.parts[0].endswith("-info")}
        if not tops & keep:
            continue
        found = []
        for f in files:
            path = Path(dist.locate_file(f))
            if LICENCE_NAME.match(f.name) and path.is_file():
                rel = f.parts[2:] if f.parts[0].endswith(".dist-info") and f.parts[1:2] == ("licenses",) else f.parts[1:]
                found.append(("/".join(rel) if f.parts[0].endswith(".dist-info") else "/".join(f.parts), path))
        if found:
            out[dist.metadata["Name"]] = found
    return out


def _installed_size_kib(root: Path) -> int:
    return sum(math.ceil(p.lstat().st_size / 1024) for p in root.rglob("*")
               if (p.is_file() or p.is_symlink()) and "DEBIAN" not in p.relative_to(root).parts[:1])


def stage(bundle: Path, root: Path, version: str, arch: str) -> dict[str, str]:
    """Lay out the package's files under ``root`` and write DEBIAN/; returns the control fields."""
    if not (bundle / EXECUTABLE).is_file():
        raise DebError(f"no bundle at {bundle} (build it with: make package)")
    app = root / INSTALL_DIR
    shutil.copytree(bundle, app, symlinks=True)
    (root / "usr/bin").mkdir(parents=True)
    os.symlink(os.path.relpath(app / EXECUTABLE, root / "usr/bin"), root / "usr/bin" / PACKAGE)
    menu = root / "usr/share/applications"
    menu.mkdir(parents=True)
    (menu / f"{PACKAGE}.desktop").write_text(desktop_entry(), encoding="utf-8")
    icons = sorted((ROOT / "assets" / "icons").glob("zeroboard-*.png"))
    if not icons:
        raise DebError("assets/icons has no zeroboard-N.png (draw them with: python tools/make_icons.py)")
    for png in icons:
        size = png.stem.rsplit("-", 1)[1]
        target = root / f"usr/share/icons/hicolor/{size}x{size}/apps/{PACKAGE}.png"
        target.parent.mkdir(parents=True)
        shutil.copyfile(png, target)
    doc = root / f"usr/share/doc/{PACKAGE}"
    doc.mkdir(parents=True)
    (doc / "copyright").write_text(copyright_text(), encoding="utf-8")
    for name, files in bundled_licence_files().items():
        folder = doc / "licenses" / re.sub(r"[^A-Za-z0-9._-]", "_", name)
        for rel, f in files:
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, folder / rel)
    # what dpkg installs is root-owned (dpkg-deb --root-owner-group), readable by all, written by root only
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():
            mode = path.stat().st_mode
            path.chmod(0o755 if path.is_dir() or mode & 0o111 else 0o644)
    fields = {"Package": PACKAGE, "Version": version, "Architecture": arch, "Maintainer": MAINTAINER,
              "Installed-Size": str(_installed_size_kib(root)), "Depends": depends(app),
              "Recommends": RECOMMENDS, "Section": "games", "Priority": "optional",
              "Description": f"{SUMMARY}\n{_paragraph_text(DESCRIPTION)}"}
    control = root / "DEBIAN"
    control.mkdir()
    (control / "control").write_text("".join(f"{k}: {v}\n" for k, v in fields.items() if v), encoding="utf-8")
    sums = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()):
        rel = path.relative_to(root).as_posix()
        if not rel.startswith("DEBIAN/"):
            digest = hashlib.md5()
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
            sums.append(f"{digest.hexdigest()}  {rel}\n")
    (control / "md5sums").write_text("".join(sums), encoding="utf-8")
    for f in control.iterdir():
        f.chmod(0o644)
    return fields


def build(bundle: Path, out: Path, compress: str = "zstd") -> Path:
    version = debian_version(app_version())
    arch = run(["dpkg", "--print-architecture"]).strip()
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{PACKAGE}_{version}_{arch}.deb"
    with tempfile.TemporaryDirectory(prefix="zeroboard-deb-", dir=out) as tmp:
        root = Path(tmp) / "root"
        fields = stage(bundle, root, version, arch)
        run(["dpkg-deb", "--root-owner-group", f"-Z{compress}", "--build", str(root), str(target)])
    print(f"make_deb: {target} ({target.stat().st_size / 1e6:.0f} MB; installed {int(fields['Installed-Size']) / 1024:.0f} MiB;"
          f" Depends: {fields['Depends'] or 'nothing'})")
    return target


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bundle", default=str(ROOT / "dist" / "ZeroBoard"), help="the one-folder bundle (make package)")
    p.add_argument("--out", default=str(ROOT / "dist"), help="folder for the .deb")
    p.add_argument("--compress", default="zstd", choices=["xz", "zstd", "gzip", "none"],
                   help="dpkg-deb's compression (xz: smallest; zstd, gzip: quicker to build)")
    args = p.parse_args(argv)
    try:
        build(Path(args.bundle), Path(args.out), args.compress)
    except DebError as e:
        print(f"make_deb: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
