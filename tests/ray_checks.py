"""The Ray backend, locally and on a two-node Ray cluster on this machine
(`ray.cluster_utils.Cluster`): the code reaches the workers through Ray's runtime environment, the
workers report progress, and a stop cancels their self-play. Each node has one CPU and a small
object store.

Ray binds its nodes to the machine's network address, not to loopback, so these checks run only
inside a private network namespace that has loopback alone, where Ray falls back to 127.0.0.1
and no traffic can reach another host: `tests/test_ray_cluster.py` starts them there
(``unshare -n``). Run directly, they skip."""
import os
import threading
import time
from pathlib import Path

import pytest

if os.environ.get("ZEROBOARD_PRIVATE_NET") != "1":
    pytest.skip("Ray's checks run inside a private network namespace: see tests/test_ray_cluster.py",
                allow_module_level=True)

ray = pytest.importorskip("ray", reason="Ray is the optional 'ray' extra: "
                                        "python3 tools/bootstrap.py install --extras ray")
pytest.importorskip("aiohttp", reason="Ray is installed without its default components (ray[default]), which its "
                                      "runtime environments need: python3 tools/bootstrap.py install --extras ray")

import json  # noqa: E402

from engine.core.checkpoint import load_network  # noqa: E402
from engine.core.config import load_config  # noqa: E402
from engine.training.train import TrainingRun  # noqa: E402
from games import get_game  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
#: Ray's smallest object store (75 MiB) and a little more: checkpoints here are a few kB
OBJECT_STORE = 80 * 1024 * 1024


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """Two Ray nodes on this machine (Ray's own test clusters; each node is its own raylet with
    its own resources, both at this machine's address); the code under test connects to it
    with its address, as `train --ray-address` does. Like a machine without ZeroBoard, the
    nodes have no path to this checkout: they start without PYTHONPATH, and the driver runs in
    another folder (Ray gives workers the driver's current folder)."""
    from ray.cluster_utils import Cluster
    node = {"num_cpus": 1, "object_store_memory": OBJECT_STORE}
    c = None
    cwd, pythonpath = os.getcwd(), os.environ.pop("PYTHONPATH", None)
    os.chdir(tmp_path_factory.mktemp("elsewhere"))
    try:
        c = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
        c.add_node(**node)
        c.wait_for_nodes()
        yield c
    finally:
        if ray.is_initialized():
            ray.shutdown()
        if c is not None:
            c.shutdown()
        os.chdir(cwd)
        if pythonpath is not None:
            os.environ["PYTHONPATH"] = pythonpath


def tiny_config(game, games: int):
    cfg = load_config(game)
    cfg.selfplay.games_per_generation = games
    cfg.selfplay.parallel_games = 4
    cfg.selfplay.sims = 8
    cfg.selfplay.precision = "fp32"   # no bfloat16 timing in each worker
    cfg.train.min_buffer = 10
    cfg.train.steps_per_generation = 3
    cfg.train.arena_games = 0
    cfg.train.baseline_games = 0
    return cfg


def test_ray_backend_runs_one_small_generation_of_tictactoe(tmp_path):
    # first: a local Ray instance of its own, before the module's cluster exists (Ray would join it)
    game = get_game("tictactoe")
    cfg = load_config(game)
    cfg.selfplay.games_per_generation = 8
    cfg.selfplay.sims = 16
    cfg.train.min_buffer = 10
    cfg.train.steps_per_generation = 5
    cfg.train.arena_games = 2
    cfg.train.arena_sims = 8
    run = TrainingRun(game, tmp_path / "run", cfg, workers=2, backend="ray", progress=False)
    state = run.run(generations=1)
    assert state["generation"] == 1 and state["games"] == 8
    load_network(tmp_path / "run" / "latest.pt", game)
    line = json.loads((tmp_path / "run" / "metrics.jsonl").read_text().splitlines()[0])
    assert line["selfplay"]["games"] == 8


def test_a_generation_plays_on_both_nodes_with_the_code_shipped_to_them(cluster, tmp_path):
    game = get_game("connect2")
    events = []
    run = TrainingRun(game, tmp_path / "run", tiny_config(game, 12), workers=2, backend="ray",
                      ray_address=cluster.address, progress=False, on_event=events.append)
    try:
        run._ensure_pool()
        where = run._ray.describe_workers()
        # one worker on each node (each has one CPU)
        assert len({w["node"] for w in where}) == 2
        # their code is Ray's copy of the driver's packages, not this checkout
        for w in where:
            assert not Path(w["engine"]).is_relative_to(REPO), w
            assert Path(w["engine"]).name == "engine"
        state = run.run(generations=1)
    finally:
        run.close()
    assert state["generation"] == 1 and state["games"] == 12
    selfplay = [e for e in events if e["type"] == "selfplay"]
    assert selfplay and selfplay[-1]["games"] == 12 and selfplay[-1]["of"] == 12
    assert [e["games"] for e in selfplay] == sorted(e["games"] for e in selfplay)
    progress = [e for e in events if e["type"] == "progress"]
    assert progress[-1]["selfplay"]["games"] == 12 and progress[-1]["positions"] == state["positions"] > 0


def test_workers_report_games_and_a_stop_cancels_their_self_play(cluster, tmp_path):
    from engine.training.ray_backend import RaySelfPlay
    game = get_game("tictactoe")
    cfg = tiny_config(game, 4000)   # minutes of self-play if nothing stopped it
    run = TrainingRun(game, tmp_path / "run", cfg, workers=2, progress=False)   # a checkpoint to play with
    backend = RaySelfPlay(2, cluster.address)
    seen = []
    try:
        settings = dict(cfg.selfplay.__dict__)
        t0 = time.monotonic()
        out = backend.run(game.key, str(run.ckpt_path(0)), settings, [2000, 2000], [1, 2],
                          on_progress=lambda g, p: seen.append((g, p)),
                          should_stop=lambda: bool(seen) and seen[-1][0] >= 2)
        stopped_after = time.monotonic() - t0
        assert out is None   # stopped, not finished
        # the counts came from the workers while they played: games and their positions
        reported = [s for s in seen if s[0] > 0]
        assert reported and 2 <= reported[-1][0] < 4000 and reported[-1][1] >= 5 * reported[-1][0]   # 5 plies or more a game
        assert stopped_after < 60
        # the running tasks ended, not just their results: each worker answers at once
        # (an actor runs one call at a time, so one still playing 2000 games could not)
        ray.get([a.where.remote() for a in backend.actors], timeout=10)
        # the cancelled tasks returned: the same workers play the next job at once
        t1 = time.monotonic()
        results = backend.run(game.key, str(run.ckpt_path(0)), settings, [1, 1], [3, 4])
        assert sum(st["games"] for _, st in results) == 2
        assert time.monotonic() - t1 < 30
    finally:
        backend.close()


def test_a_stop_request_from_another_thread_ends_a_ray_generation_promptly(cluster, tmp_path):
    # as the GUI's trainer does: its stop event's watcher thread calls request_stop()
    game = get_game("tictactoe")
    events = []
    run = TrainingRun(game, tmp_path / "run", tiny_config(game, 4000), workers=2, backend="ray",
                      ray_address=cluster.address, progress=False, on_event=events.append)
    asked = {}

    def stop_when_playing():
        # the Ray workers' start-up (each imports torch) is not what is timed: on a loaded
        # machine their first game can take well over a minute
        while not any(e["type"] == "selfplay" for e in events) and time.monotonic() - start < 300:
            time.sleep(0.05)
        asked["at"] = time.monotonic()
        run.request_stop()

    start = time.monotonic()
    watcher = threading.Thread(target=stop_when_playing, daemon=True)
    watcher.start()
    state = run.run(generations=1)
    ended = time.monotonic()
    watcher.join()
    assert state["generation"] == 0 and state["games"] == 0   # nothing half-played was kept
    assert [e for e in events if e["type"] == "selfplay"]
    assert ended - asked["at"] < 15
    assert run._ray is None and not ray.is_initialized()   # workers ended, connection closed
