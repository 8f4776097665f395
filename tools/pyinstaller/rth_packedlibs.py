"""PyInstaller runtime hook of the packaged app (build.spec adds it only where it packs torch's
operator library, torch/lib/packed_libs.json, on Linux): the first `import torch` of each process
unpacks it into the user cache once and loads it (engine/core/packedlib.py)."""
import sys
from pathlib import Path

from engine.core.packedlib import bundle_lib_dir, install_import_hook

install_import_hook(bundle_lib_dir(Path(getattr(sys, "_MEIPASS", ""))))
