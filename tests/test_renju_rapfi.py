"""Renju's forbidden points agree with Rapfi's on random positions (a short run of
tools/renju_differential.py; docs/rules.md has the 10,000-position runs). Skipped without a
Rapfi brain: set ZEROBOARD_RAPFI, or build it with tools/refengines/build_rapfi.sh into its
default /tmp/refengines/rapfi."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BRAIN = os.environ.get("ZEROBOARD_RAPFI", "/tmp/refengines/rapfi/build/pbrain-rapfi")
pytestmark = pytest.mark.skipif(not Path(BRAIN).is_file(), reason=f"no Rapfi brain at {BRAIN}")


def test_forbidden_points_agree_with_rapfi_on_random_positions():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "renju_differential.py"), BRAIN, "--positions", "300",
                          "--seed", "11", "--show", "3"], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["positions"] == 300 and result["forbidden_points"] > 50
    assert result["disagreeing_positions"] == 0, out.stderr[-4000:]
