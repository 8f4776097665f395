"""The Debian package's builder and checker (tools/make_deb.py, tools/check_deb.py) on a stand-in
bundle: a shell script as the executable. (.ci/package builds and checks the real one.)"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    import check_deb
    import make_deb
finally:
    sys.path.remove(str(ROOT / "tools"))

needs_dpkg = pytest.mark.skipif(not all(shutil.which(t) for t in ("dpkg", "dpkg-deb", "readelf")),
                                reason="needs dpkg, dpkg-deb and readelf (Debian)")


def stand_in_bundle(folder: Path, script: str = 'echo "ran with $*"') -> Path:
    bundle = folder / "ZeroBoard"
    (bundle / "_internal").mkdir(parents=True)
    exe = bundle / "ZeroBoard"
    exe.write_text(f"#!/bin/sh\n{script}\n")
    exe.chmod(0o755)
    (bundle / "_internal" / "data.txt").write_text("data")
    shutil.copy(shutil.which("true"), bundle / "_internal" / "helper")  # an ELF file that needs glibc
    return bundle


def test_debian_versions_order_pre_releases_before_releases():
    assert make_deb.debian_version("0.1.0") == "0.1.0"
    assert make_deb.debian_version("1.0rc1") == "1.0~rc1"
    assert make_deb.debian_version("2.1.dev3") == "2.1~dev3"
    with pytest.raises(make_deb.DebError):
        make_deb.debian_version("version one")


def test_the_menu_entry_starts_the_installed_command():
    entry = make_deb.desktop_entry()
    assert "\nExec=zeroboard\n" in entry and "Exec=ZeroBoard" not in entry
    assert entry.startswith("[Desktop Entry]") and "\nIcon=zeroboard\n" in entry


def test_the_copyright_file_carries_the_licences():
    text = make_deb.copyright_text()
    assert text.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n")
    assert "License: MIT\n" in text and "License: OFL-1.1\n" in text and "Libraries in the packaged app" in text
    assert "Permission is hereby granted" in text and "License: LGPL-2.1+\n" in text  # pygame-ce
    # every continuation line of a field starts with a space; paragraphs are separated by one empty line
    assert all(line == "" or line[0] == " " or ":" in line for line in text.splitlines())


def test_a_missing_bundle_is_a_clear_error(tmp_path, capsys):
    assert make_deb.main(["--bundle", str(tmp_path / "nothing"), "--out", str(tmp_path)]) == 1
    assert "no bundle at" in capsys.readouterr().err


@needs_dpkg
def test_the_package_installs_starts_from_the_menu_command_and_purges(tmp_path, capsys):
    bundle = stand_in_bundle(tmp_path)
    deb = make_deb.build(bundle, tmp_path / "out", compress="gzip")
    info = check_deb.fields(deb)
    assert info["Package"] == "zeroboard" and info["Section"] == "games"
    assert info["Depends"].startswith("libc6 (>= 2.")  # /bin/true's newest GLIBC_ symbol version
    listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True).stdout
    assert "./usr/bin/zeroboard -> ../lib/zeroboard/ZeroBoard" in listing
    assert "./usr/share/icons/hicolor/256x256/apps/zeroboard.png" in listing
    assert "root/root" in listing and "./DEBIAN" not in listing
    # the licence files of the bundled packages, from the environment that builds the package
    assert "./usr/share/doc/zeroboard/licenses/torch/LICENSE\n" in listing
    assert "./usr/share/doc/zeroboard/licenses/onnxruntime/onnxruntime/ThirdPartyNotices.txt\n" in listing
    check_deb.check(deb, ["--selftest"])
    out = capsys.readouterr().out
    assert "exited 0" in out and "nothing is left" in out


@needs_dpkg
def test_the_checker_fails_when_the_installed_command_fails(tmp_path):
    bundle = stand_in_bundle(tmp_path, script="echo broken >&2; exit 3")
    deb = make_deb.build(bundle, tmp_path / "out", compress="gzip")
    with pytest.raises(check_deb.CheckFailed, match="exited 3"):
        check_deb.check(deb, ["--selftest"])


@needs_dpkg
def test_the_checker_finds_a_file_left_after_purge(tmp_path, monkeypatch):
    deb = make_deb.build(stand_in_bundle(tmp_path), tmp_path / "out", compress="gzip")
    real_dpkg = check_deb.dpkg

    def dpkg_that_leaves_a_file(root, log, *args):
        out = real_dpkg(root, log, *args)
        if "--purge" in args:
            (root / "usr/lib/zeroboard").mkdir(parents=True, exist_ok=True)
            (root / "usr/lib/zeroboard/stray").write_text("left")
        return out
    monkeypatch.setattr(check_deb, "dpkg", dpkg_that_leaves_a_file)
    with pytest.raises(check_deb.CheckFailed, match="paths are left"):
        check_deb.check(deb, ["--selftest"])


def test_unmet_dependencies_are_reported():
    with pytest.raises(check_deb.CheckFailed, match="not met"):
        check_deb.check_depends("libc6 (>= 2.1), zeroboard-no-such-package-anywhere")
    with pytest.raises(check_deb.CheckFailed, match="not met"):
        check_deb.check_depends("libc6 (>= 999)")


@needs_dpkg
@pytest.mark.skipif(shutil.which("xz") is None, reason="needs xz, an ELF program linked to liblzma")
def test_a_system_library_the_bundle_does_not_carry_becomes_a_dependency(tmp_path):
    folder = tmp_path / "bundle"
    folder.mkdir()
    shutil.copy(shutil.which("xz"), folder / "xz")   # needs liblzma.so.5 and glibc
    first, *rest = make_deb.depends(folder).split(", ")
    assert first.startswith("libc6 (>= 2.") and rest == ["liblzma5"]
    # once the bundle carries the library, the system need not provide it
    lzma = subprocess.run(["sh", "-c", "ldconfig -p | grep -m1 'liblzma.so.5 ' | sed 's/.*=> //'"],
                          capture_output=True, text=True).stdout.strip()
    shutil.copy(lzma, folder / "liblzma.so.5")
    first, *rest = make_deb.depends(folder).split(", ")
    assert first.startswith("libc6 (>= 2.") and rest == []
