"""Puts the repository root on sys.path, so tests import `games` and `engine` wherever pytest runs from."""
import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
