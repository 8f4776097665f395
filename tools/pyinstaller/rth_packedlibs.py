"""PyInstaller runtime hook of the packaged app (build.spec): where the bundle carries torch's
operator library compressed (torch/lib/packed_libs.json, Linux), the first `import torch` of
each process unpacks it into the user cache once and loads it (engine/core/packedlib.py)."""
import sys
from pathlib import Path


def _install() -> None:
    lib_dir = Path(getattr(sys, "_MEIPASS", "")) / "torch" / "lib"
    if (lib_dir / "packed_libs.json").is_file():
        from engine.core.packedlib import install_import_hook
        install_import_hook(lib_dir)


_install()
