"""Runs the Ray backend's checks (tests/ray_checks.py) inside a private network namespace.

Ray binds its nodes to the machine's network address, not to loopback; in a network namespace
with loopback alone it falls back to 127.0.0.1, so the cluster's traffic stays on loopback and
cannot reach another host. ``unshare -n`` makes the namespace (as root; ``-r`` maps the user to
root where unprivileged user namespaces are allowed)."""
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def test_the_ray_backend_checks_pass_in_a_private_network_namespace():
    if importlib.util.find_spec("ray") is None:
        pytest.skip("Ray is the optional 'ray' extra: python3 tools/bootstrap.py install --extras ray")
    if importlib.util.find_spec("aiohttp") is None:
        pytest.skip("Ray is installed without its default components (ray[default]), which its runtime "
                    "environments need: python3 tools/bootstrap.py install --extras ray")
    if sys.platform != "linux" or shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs Linux's unshare and ip to make a private network namespace")
    flags = "-n" if os.geteuid() == 0 else "-rn"
    probe = subprocess.run(["unshare", flags, "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a private network namespace here (unshare {flags}: "
                    f"{probe.stderr.decode(errors='replace').strip()})")
    env = dict(os.environ, ZEROBOARD_PRIVATE_NET="1")
    inner = 'ip link set lo up && exec "$0" -m pytest -q -p no:cacheprovider "$1"'
    r = subprocess.run(["unshare", flags, "sh", "-c", inner, sys.executable, str(HERE / "ray_checks.py")],
                       cwd=HERE.parent, env=env, capture_output=True, text=True, timeout=900)
    out = r.stdout[-4000:] + r.stderr[-4000:]
    assert r.returncode == 0, out
    assert " passed" in r.stdout and "skipped" not in r.stdout.splitlines()[-1], out
