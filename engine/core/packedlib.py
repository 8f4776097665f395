"""Shared libraries the packaged app carries compressed and unpacks the first time it needs them.

torch's operator library (``libtorch_cpu.so``, 345 MB stripped) is loaded only when the app trains
or reads a model that has no ONNX export yet: play and analysis run on ONNX Runtime from the
exports made at build time. On Linux the bundle therefore carries it xz-compressed (78 MB) with a
manifest (``packed_libs.json`` beside it: each library's packed file, size and SHA-256), and the
first ``import torch`` in any process of the app unpacks it into the per-user cache, checks its
digest, and loads it before torch looks for it (`install_import_hook`, run by the bundle's runtime
hook). Later processes find it unpacked and only load it; processes that start together (the
trainer and its self-play workers) take a lock, so one unpacks and the others wait.

The dynamic loader resolves a library another one asks for (``libtorch_python.so`` asks for
``libtorch_cpu.so``) by the name of one already loaded, so loading the unpacked copy first, with
global symbols, and its own dependencies from the bundle before it (its search path is its own
folder, the cache), lets torch import exactly as if the file sat in the bundle.

Standard library only: the runtime hook imports this before anything else."""
from __future__ import annotations

import hashlib
import json
import lzma
import os
import shutil
import sys
from pathlib import Path
from typing import NamedTuple

MANIFEST = "packed_libs.json"
#: where, inside the packaged app's folder, the packed libraries and their manifest lie
BUNDLE_LIB_DIR = ("torch", "lib")
#: the folder (inside the user cache) that holds unpacked libraries, one subfolder per digest
CACHE_FOLDER = "libs"
CHUNK = 1 << 20


class PackedLibError(ImportError):
    """A packed library could not be unpacked or loaded; the message says why and what to do."""


class Manifest(NamedTuple):
    """A bundle folder's packed libraries: name -> {"packed": file name, "size": bytes, "sha256":
    hex}, and the bundle's libraries they need, in loading order."""
    libraries: dict[str, dict]
    load_first: list[str]


def bundle_lib_dir(bundle_root: Path) -> Path:
    """The folder of the packaged app at ``bundle_root`` that holds torch's libraries."""
    return Path(bundle_root, *BUNDLE_LIB_DIR)


def packs(lib_dir: Path) -> bool:
    """Whether ``lib_dir`` carries packed libraries (a manifest)."""
    return (Path(lib_dir) / MANIFEST).is_file()


def read_manifest(lib_dir: Path) -> Manifest:
    """``lib_dir``/packed_libs.json, checked; an empty Manifest when there is none. PackedLibError
    when it is there but not a manifest."""
    path = Path(lib_dir) / MANIFEST
    if not path.is_file():
        return Manifest({}, [])
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        libs = data["libraries"]
        out = {}
        for name, entry in libs.items():
            size, digest, packed = entry["size"], entry["sha256"], entry["packed"]
            if (type(size) is not int or size <= 0 or not isinstance(digest, str) or len(digest) != 64
                    or not isinstance(packed, str) or Path(packed).name != packed or Path(name).name != name):
                raise ValueError(f"bad entry for {name!r}")
            out[name] = {"packed": packed, "size": size, "sha256": digest.lower()}
        order = data.get("load_first", [])
        if not isinstance(order, list) or not all(isinstance(n, str) and Path(n).name == n for n in order):
            raise ValueError("load_first must be a list of file names")
        return Manifest(out, list(order))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise PackedLibError(f"the bundle's {path} is damaged ({e}); reinstall ZeroBoard") from None


def write_manifest(lib_dir: Path, libraries: dict[str, dict], load_first_names: list[str]) -> Path:
    """Write ``lib_dir``/packed_libs.json (the build calls this)."""
    path = Path(lib_dir) / MANIFEST
    path.write_text(json.dumps({"libraries": libraries, "load_first": load_first_names}, indent=1) + "\n",
                    encoding="utf-8")
    return path


def pack(source: Path, target: Path, preset: int = 1) -> dict:
    """Compress ``source`` to ``target`` (xz); returns its manifest entry. Streams: a 345 MB library
    never sits in memory whole."""
    digest, size = hashlib.sha256(), 0
    comp = lzma.LZMACompressor(preset=preset)
    tmp = target.with_name(target.name + ".part")
    with open(source, "rb") as src, open(tmp, "wb") as out:
        while chunk := src.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
            out.write(comp.compress(chunk))
        out.write(comp.flush())
    os.replace(tmp, target)
    return {"packed": target.name, "size": size, "sha256": digest.hexdigest()}


class _Lock:
    """An exclusive lock on a file (fcntl where there is one; elsewhere none: the rename that
    finishes an unpacking is atomic, so two processes that both unpack waste work, never a file)."""

    def __init__(self, path: Path):
        self.path = path
        self.fd = None

    def __enter__(self):
        try:
            import fcntl
        except ImportError:
            return self
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            os.close(self.fd)   # closing releases the lock
            self.fd = None


def _ready(target: Path, entry: dict) -> bool:
    """Whether ``target`` is a finished unpacking of ``entry``: the file at its size and a marker
    naming its digest, written only after the digest was checked."""
    marker = target.with_name(target.name + ".sha256")
    try:
        return (target.stat().st_size == entry["size"]
                and marker.read_text(encoding="ascii").strip() == entry["sha256"])
    except (OSError, UnicodeDecodeError):
        return False


def pending(lib_dir: Path, cache_dir: Path) -> int:
    """Bytes the next ``import torch`` will unpack first (0 when ``lib_dir`` packs nothing or all of
    it is unpacked, or its manifest cannot be read: the import then says why)."""
    try:
        libraries = read_manifest(lib_dir).libraries
    except PackedLibError:
        return 0
    root = Path(cache_dir) / CACHE_FOLDER
    return sum(e["size"] for name, e in libraries.items() if not _ready(root / e["sha256"][:16] / name, e))


def unpack(lib_dir: Path, name: str, entry: dict, cache_dir: Path, on_unpack=None) -> Path:
    """The unpacked ``name`` in ``cache_dir``/libs/<digest>/, unpacking ``lib_dir``/<packed> first
    when it is not there yet (``on_unpack(name, size)`` is called just before). The digest is
    checked while writing; a file that does not match is never used. Folders of other digests
    (an earlier version of the app) are removed. PackedLibError says what went wrong."""
    root = Path(cache_dir) / CACHE_FOLDER
    folder = root / entry["sha256"][:16]
    target = folder / name
    if _ready(target, entry):
        return target
    packed = Path(lib_dir) / entry["packed"]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with _Lock(root / ".lock"):
            if _ready(target, entry):     # another process unpacked it while this one waited
                return target
            if on_unpack is not None:
                on_unpack(name, entry["size"])
            free = shutil.disk_usage(folder).free
            if free < entry["size"] + (16 << 20):
                raise PackedLibError(f"training needs {entry['size'] / 1e6:.0f} MB free in {folder} to unpack "
                                     f"{name} (about {free / 1e6:.0f} MB are free); make room and try again")
            tmp = folder / f".{name}.{os.getpid()}.part"
            digest, size = hashlib.sha256(), 0
            try:
                dec = lzma.LZMADecompressor()
                with open(packed, "rb") as src, open(tmp, "wb") as out:
                    while chunk := src.read(CHUNK):
                        data = dec.decompress(chunk)
                        digest.update(data)
                        size += len(data)
                        if size > entry["size"]:
                            break
                        out.write(data)
                if size != entry["size"] or digest.hexdigest() != entry["sha256"] or not dec.eof:
                    raise PackedLibError(f"the bundle's {packed} is damaged (it does not unpack to the {name} "
                                         "it was built from); reinstall ZeroBoard")
                os.chmod(tmp, 0o755)
                os.replace(tmp, target)
            except lzma.LZMAError as e:
                raise PackedLibError(f"the bundle's {packed} is damaged ({e}); reinstall ZeroBoard") from None
            finally:
                if tmp.exists():
                    tmp.unlink()
            marker = target.with_name(target.name + ".sha256")
            marker.write_text(entry["sha256"] + "\n", encoding="ascii")
            for other in root.iterdir():
                if other.is_dir() and other != folder:
                    shutil.rmtree(other, ignore_errors=True)
    except PackedLibError:
        raise
    except OSError as e:
        raise PackedLibError(f"could not unpack {name} into {folder}: {e}") from None
    return target


def load(lib_dir: Path, cache_dir: Path, on_unpack=None) -> list[Path]:
    """Load every packed library of ``lib_dir`` (unpacking it first where needed), after the
    bundle's libraries it needs (the manifest's ``load_first``), all with global symbols.
    Returns the loaded paths (none when ``lib_dir`` packs nothing)."""
    import ctypes
    manifest = read_manifest(lib_dir)
    if not manifest.libraries:
        return []
    mode = getattr(ctypes, "RTLD_GLOBAL", 0)
    loaded = []
    try:
        for dep in manifest.load_first:
            path = Path(lib_dir) / dep
            if path.is_file():
                ctypes.CDLL(str(path), mode=mode)
                loaded.append(path)
        for name, entry in manifest.libraries.items():
            path = unpack(lib_dir, name, entry, cache_dir, on_unpack)
            ctypes.CDLL(str(path), mode=mode)
            loaded.append(path)
    except OSError as e:
        hint = (" (a cache folder on a file system mounted noexec cannot hold libraries: set ZEROBOARD_HOME "
                "to a folder elsewhere)") if "map segment" in str(e) or "not permitted" in str(e) else ""
        raise PackedLibError(f"could not load torch's libraries: {e}{hint}") from None
    return loaded


class _TorchFinder:
    """A meta path entry that, at the first ``import torch``, makes sure the packed libraries are
    unpacked and loaded, then steps aside for the normal import."""

    def __init__(self, lib_dir: Path, cache_dir_fn, on_unpack=None):
        self.lib_dir = lib_dir
        self.cache_dir_fn = cache_dir_fn
        self.on_unpack = on_unpack

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch":
            return None
        load(self.lib_dir, self.cache_dir_fn(), self.on_unpack)   # raises PackedLibError: the import fails
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        return None   # the usual finders import torch itself

    def find_module(self, fullname, path=None):   # pragma: no cover - the old protocol, never used on 3.11
        return None


def _say_unpacking(name: str, size: int) -> None:
    print(f"ZeroBoard: unpacking {name} ({size / 1e6:.0f} MB) into the cache, once, for training",
          file=sys.stderr, flush=True)


def install_import_hook(lib_dir: Path, cache_dir_fn=None) -> bool:
    """Arrange for the first ``import torch`` to load ``lib_dir``'s packed libraries (the packaged
    app's runtime hook calls this). False, and nothing done, when ``lib_dir`` packs nothing."""
    if not packs(lib_dir):
        return False
    if cache_dir_fn is None:
        def cache_dir_fn():
            from engine.core.paths import user_cache_dir
            return user_cache_dir()
    stream = sys.stderr
    say = _say_unpacking if stream is not None else None   # a windowed app on Windows has no stderr
    sys.meta_path.insert(0, _TorchFinder(Path(lib_dir), cache_dir_fn, say))
    return True
