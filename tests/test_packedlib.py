"""The packaged app's compressed library (engine/core/packedlib.py): unpacked once into the cache,
checked against its digest, never used damaged, loaded before torch asks for it. The frozen
self-test (.ci/package) loads the real libtorch_cpu.so this way; these use a small library."""
import _lzma
import ctypes
import hashlib
import multiprocessing as mp
import sys
from collections import namedtuple
from pathlib import Path

import pytest

from engine.core import packedlib
from engine.core.packedlib import PackedLibError

LIB = Path(_lzma.__file__)   # a real shared library that loads in this process


def _bundle(tmp_path, name="libsmall.so", source=LIB):
    lib_dir = tmp_path / "bundle" / "torch" / "lib"
    lib_dir.mkdir(parents=True)
    entry = packedlib.pack(source, lib_dir / (name + ".xz"))
    packedlib.write_manifest(lib_dir, {name: entry}, [])
    return lib_dir, entry


def test_pack_records_the_size_and_digest_and_unpacking_restores_the_file(tmp_path):
    lib_dir, entry = _bundle(tmp_path)
    data = LIB.read_bytes()
    assert entry == {"packed": "libsmall.so.xz", "size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    assert packedlib.read_manifest(lib_dir) == ({"libsmall.so": entry}, [])
    calls = []
    out = packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache", lambda *a: calls.append(a))
    assert out.read_bytes() == data and out.parent.name == entry["sha256"][:16]
    assert calls == [("libsmall.so", len(data))]
    # a second process (or call) finds it unpacked and does not unpack again
    assert packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache", lambda *a: calls.append(a)) == out
    assert len(calls) == 1


def test_a_damaged_packed_file_is_refused_and_leaves_nothing_behind(tmp_path):
    lib_dir, entry = _bundle(tmp_path)
    packed = lib_dir / entry["packed"]
    raw = bytearray(packed.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    packed.write_bytes(bytes(raw))
    with pytest.raises(PackedLibError, match="damaged"):
        packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache")
    folder = tmp_path / "cache" / packedlib.CACHE_FOLDER / entry["sha256"][:16]
    assert not any(p.name.endswith((".so", ".part")) for p in folder.iterdir())
    packed.write_bytes(bytes(raw[: len(raw) // 3]))   # cut short
    with pytest.raises(PackedLibError, match="damaged"):
        packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache")


def test_a_digest_that_does_not_match_is_refused(tmp_path):
    lib_dir, entry = _bundle(tmp_path)
    wrong = dict(entry, sha256="0" * 64)
    with pytest.raises(PackedLibError, match="does not unpack"):
        packedlib.unpack(lib_dir, "libsmall.so", wrong, tmp_path / "cache")
    # an unpacked file whose marker is missing (a crash before it was written) is unpacked again
    out = packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache")
    out.with_name(out.name + ".sha256").unlink()
    out.write_bytes(b"half")
    assert packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache").read_bytes() == LIB.read_bytes()


def test_damaged_manifests_get_a_clear_error(tmp_path):
    lib_dir = tmp_path / "lib"
    lib_dir.mkdir()
    assert packedlib.read_manifest(lib_dir) == ({}, [])
    for text in ("{", "[]", '{"libraries": {"x.so": {"packed": "../x.xz", "size": 3, "sha256": "' + "a" * 64 + '"}}}',
                 '{"libraries": {"x.so": {"packed": "x.xz", "size": -1, "sha256": "' + "a" * 64 + '"}}}',
                 '{"libraries": {"x.so": {"packed": "x.xz", "size": 3, "sha256": "short"}}}',
                 '{"libraries": {}, "load_first": ["../../etc/x"]}'):
        (lib_dir / packedlib.MANIFEST).write_text(text, encoding="utf-8")
        with pytest.raises(PackedLibError, match="reinstall"):
            packedlib.read_manifest(lib_dir)


def test_too_little_disk_says_how_much_is_needed(tmp_path, monkeypatch):
    lib_dir, entry = _bundle(tmp_path)
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(packedlib.shutil, "disk_usage", lambda p: usage(100, 99, 1000))
    with pytest.raises(PackedLibError, match="MB free"):
        packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache")


def test_an_earlier_versions_unpacked_library_is_removed(tmp_path):
    old = tmp_path / "cache" / packedlib.CACHE_FOLDER / "0123456789abcdef"
    old.mkdir(parents=True)
    (old / "libsmall.so").write_bytes(b"old")
    lib_dir, entry = _bundle(tmp_path)
    packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache")
    assert not old.exists()


def _unpack_in_child(lib_dir, cache, queue):
    entry = packedlib.read_manifest(Path(lib_dir)).libraries["libsmall.so"]
    out = packedlib.unpack(Path(lib_dir), "libsmall.so", entry, Path(cache))
    queue.put(hashlib.sha256(out.read_bytes()).hexdigest())


def test_processes_that_start_together_get_one_whole_file(tmp_path):
    big = tmp_path / "big.so"
    big.write_bytes(LIB.read_bytes() * 40)   # long enough to unpack that the processes overlap
    lib_dir, entry = _bundle(tmp_path, source=big)
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_unpack_in_child, args=(str(lib_dir), str(tmp_path / "cache"), queue))
             for _ in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert [queue.get(timeout=5) for _ in procs] == [entry["sha256"]] * 3
    folder = tmp_path / "cache" / packedlib.CACHE_FOLDER / entry["sha256"][:16]
    assert sorted(p.name for p in folder.iterdir()) == ["libsmall.so", "libsmall.so.sha256"]


def test_the_import_hook_loads_the_library_at_the_first_torch_import_only(tmp_path, monkeypatch):
    lib_dir, entry = _bundle(tmp_path)
    dep = lib_dir / "libdep.so"
    dep.write_bytes(LIB.read_bytes())
    packedlib.write_manifest(lib_dir, {"libsmall.so": entry}, ["libdep.so", "libabsent.so"])
    loaded = []
    real = ctypes.CDLL
    monkeypatch.setattr(ctypes, "CDLL", lambda path, mode=0: loaded.append(Path(path).name) or real(path, mode=mode))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    assert packedlib.install_import_hook(lib_dir, lambda: tmp_path / "cache")
    finder = sys.meta_path[0]
    assert finder.find_spec("numpy") is None and loaded == []
    assert finder.find_spec("torch") is None
    assert loaded == ["libdep.so", "libsmall.so"]      # its dependency first; an absent one skipped
    assert finder not in sys.meta_path                 # then out of the way
    assert not packedlib.install_import_hook(tmp_path)  # nothing packed: nothing installed


def test_a_failed_unpacking_fails_the_import_with_its_reason_and_tries_again_next_time(tmp_path, monkeypatch):
    lib_dir, entry = _bundle(tmp_path)
    packed = lib_dir / entry["packed"]
    good = packed.read_bytes()
    packed.write_bytes(good[:100])
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    packedlib.install_import_hook(lib_dir, lambda: tmp_path / "cache")
    finder = sys.meta_path[0]
    with pytest.raises(ImportError, match="damaged"):
        finder.find_spec("torch")
    assert finder in sys.meta_path
    packed.write_bytes(good)
    assert finder.find_spec("torch") is None and finder not in sys.meta_path



def test_pending_says_how_much_the_next_import_unpacks(tmp_path):
    lib_dir, entry = _bundle(tmp_path)
    assert packedlib.pending(lib_dir, tmp_path / "cache") == entry["size"]
    packedlib.unpack(lib_dir, "libsmall.so", entry, tmp_path / "cache")
    assert packedlib.pending(lib_dir, tmp_path / "cache") == 0
    assert packedlib.pending(tmp_path, tmp_path / "cache") == 0          # nothing packed
    (lib_dir / packedlib.MANIFEST).write_text("{", encoding="utf-8")
    assert packedlib.pending(lib_dir, tmp_path / "cache") == 0           # damaged: the import will say so



def test_a_library_that_cannot_be_loaded_fails_the_import_with_a_reason(tmp_path):
    fake = tmp_path / "fake.so"
    fake.write_bytes(b"not a shared library at all" * 100)
    lib_dir, entry = _bundle(tmp_path, source=fake)
    with pytest.raises(PackedLibError, match="could not load torch's libraries"):
        packedlib.load(lib_dir, tmp_path / "cache")
