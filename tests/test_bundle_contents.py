"""What the bundle carries (tools/bundle_contents.py) and the Linux pbrain-zeroboard launcher build.spec writes."""
import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
try:
    import bundle_contents
finally:
    sys.path.remove(str(ROOT / "tools"))


def test_entries_are_summed_biggest_first_and_links_are_not_followed(tmp_path, capsys):
    bundle = tmp_path / "ZeroBoard"
    (bundle / "_internal" / "torch" / "lib").mkdir(parents=True)
    (bundle / "_internal" / "torch" / "lib" / "libbig.so").write_bytes(b"x" * 3000)
    (bundle / "_internal" / "torch" / "small.py").write_bytes(b"x" * 100)
    (bundle / "_internal" / "numpy.libs").mkdir()
    (bundle / "_internal" / "numpy.libs" / "libblas.so").write_bytes(b"x" * 2000)
    os.symlink("numpy.libs/libblas.so", bundle / "_internal" / "libblas.so")
    (bundle / "ZeroBoard").write_bytes(b"x" * 500)
    rows = bundle_contents.entries(bundle)
    assert [r[2] for r in rows[:3]] == ["_internal/torch", "_internal/numpy.libs", "ZeroBoard"]
    assert rows[0][:2] == (3100, 2)
    link = next(r for r in rows if r[2] == "_internal/libblas.so")
    assert link[0] == len("numpy.libs/libblas.so")
    assert bundle_contents.main([str(bundle), "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "0.0 MB" in out and "torch/lib/libbig.so" not in out and "lib/libbig.so 0.0" in out
    assert "2 smaller entries" in out


def test_a_missing_bundle_is_a_clear_error(tmp_path, capsys):
    assert bundle_contents.main([str(tmp_path / "none")]) == 1
    assert "no bundle at" in capsys.readouterr().err


def test_the_pbrain_launcher_runs_the_app_beside_it_even_through_a_link(tmp_path):
    spec = ast.parse((ROOT / "build.spec").read_text(encoding="utf-8"))
    launcher = next(ast.literal_eval(n.value) for n in spec.body if isinstance(n, ast.Assign)
                    and any(getattr(t, "id", None) == "BRAIN_LAUNCHER" for t in n.targets))
    bundle = tmp_path / "Zero Board"  # a space in the path
    bundle.mkdir()
    (bundle / "ZeroBoard").write_text('#!/bin/sh\necho "app: $*"\n')
    (bundle / "pbrain-zeroboard").write_text(launcher)
    for name in ("ZeroBoard", "pbrain-zeroboard"):
        (bundle / name).chmod(0o755)
    os.symlink(bundle / "pbrain-zeroboard", tmp_path / "pbrain-link")
    for path in (bundle / "pbrain-zeroboard", tmp_path / "pbrain-link"):
        out = subprocess.run([str(path), "--model", "a b"], capture_output=True, text=True, timeout=10)
        assert out.returncode == 0 and out.stdout == "app: pbrain --model a b\n", out
