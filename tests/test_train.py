"""Self-play training: learning from scratch, resumability under kill -9, the Ray backend,
and the background trainer the app uses."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from engine.core.checkpoint import load_network
from engine.core.config import load_config
from engine.core.evaluators import NetworkEvaluator
from engine.play.players import PolicyPlayer
from engine.core.replay import ReplayBuffer
from engine.play.solver import Solver, reachable_states
from engine.training.train import TrainingRun, time_for_another
from games import get_game

ROOT = Path(__file__).resolve().parent.parent


def test_connect2_from_scratch_reaches_perfect_play_within_a_minute(tmp_path):
    game = get_game("connect2")
    # seeded: unseeded, about one run in 25 left a position or two unlearnt after 8 generations
    torch.manual_seed(1)
    np.random.seed(1)
    # CPU time of this process, so a busy shared machine does not decide the result
    start = time.process_time()
    run = TrainingRun(game, tmp_path / "run", load_config(game), workers=1, progress=False)
    run.rng = np.random.default_rng(1)
    run.run(generations=8)
    elapsed = time.process_time() - start
    net, meta = load_network(tmp_path / "run" / "latest.pt", game)
    assert meta["generation"] == 8
    # the network alone, without search, must play the optimal move everywhere
    player = PolicyPlayer(game, NetworkEvaluator(net))
    solver = Solver()
    wrong = [s.to_text() for s in reachable_states(game) if player.choose(s).action not in solver.optimal_actions(s)]
    assert wrong == []
    assert elapsed < 60, f"took {elapsed:.1f} CPU seconds"


def test_replay_sampling_applies_symmetries_consistently(tmp_path):
    """A sampled (planes, policy) pair stays consistent under the random symmetry."""
    import numpy as np
    from engine.core.selfplay import GameRecord, SamplesBatch
    game = get_game("tictactoe")
    s = game.state_from_text("a1 b2")
    rec = GameRecord()
    legal = s.legal_actions()
    rec.planes.append(s.encode())
    rec.policy_idx.append(np.array(legal, np.int16))
    rec.policy_val.append(np.full(len(legal), 1.0 / len(legal), np.float16))
    rec.players.append(s.current_player)
    rec.policy_weight.append(1.0)
    buf = ReplayBuffer(tmp_path / "buf", game, 100)
    buf.save(1, SamplesBatch.from_records([rec], (game.num_planes, *game.board_shape)))
    assert buf.load() == 1
    rng = np.random.default_rng(0)
    for _ in range(20):
        planes, policy, z, pw = buf.sample(1, rng)
        occupied = planes[0, :2].sum(axis=0).reshape(-1) > 0
        # policy mass sits exactly on the empty cells of the transformed board
        assert np.all((policy[0] > 0) == ~occupied)
        assert abs(policy[0].sum() - 1.0) < 1e-3


def _train_cmd(run_dir, generations, resume):
    cmd = [sys.executable, str(ROOT / "main.py"), "train", "--game", "connect2", "--run-dir", str(run_dir),
           "--generations", str(generations), "--workers", "1", "--quiet"]
    return cmd + (["--resume"] if resume else [])


def test_resume_after_kill_9_loses_nothing(tmp_path):
    run_dir = tmp_path / "run"
    rng = random.Random(1)
    target = 12
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # kill the run at random moments (during self-play, training, saving), then resume
    for attempt in range(4):
        proc = subprocess.Popen(_train_cmd(run_dir, target, resume=attempt > 0) if attempt == 0 else
                                _train_cmd(run_dir, target, resume=True), env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        # the first kill falls after the run has begun (on a loaded machine starting Python and
        # torch alone can take longer than the random wait), the later ones anywhere
        deadline = time.monotonic() + 120
        while attempt == 0 and not (run_dir / "run.json").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(rng.uniform(3.0, 7.0))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    state_file = run_dir / "state.json"
    done = json.loads(state_file.read_text())["generation"] if state_file.exists() else 0
    # --generations counts from where the run stands; always resume once more after the last kill
    remaining = max(1, target - done)
    subprocess.run(_train_cmd(run_dir, remaining, resume=True), check=True, timeout=180, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    state = json.loads((run_dir / "state.json").read_text())
    assert state["generation"] >= target
    game = get_game("connect2")
    for g in range(state["generation"] + 1):  # every checkpoint loads
        load_network(run_dir / "checkpoints" / f"gen_{g:06d}.pt", game)
    lines = [json.loads(l) for l in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [l["generation"] for l in lines] == list(range(1, state["generation"] + 1))
    # games played before a kill and reused after it are counted once
    per_generation = load_config(game).selfplay.games_per_generation
    assert state["games"] == state["generation"] * per_generation
    assert [l["games"] for l in lines] == [g * per_generation for g in range(1, state["generation"] + 1)]
    # each generation's line says which runtime its self-play ran the network in
    assert all(l["selfplay"]["runtime"] in ("torch-fp32", "torch-bf16", "ort-fp32", "wino-fp32") for l in lines), lines
    buf = ReplayBuffer(run_dir / "buffer", game, 10**6)
    assert buf.load() > 0
    assert not list(run_dir.rglob("*.tmp"))  # the resume cleared half-written files


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="sends SIGTERM (POSIX)")
def test_sigterm_stops_a_command_line_run_as_ctrl_c_does_and_it_resumes(tmp_path):
    run_dir = tmp_path / "run"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    cmd = [sys.executable, str(ROOT / "main.py"), "train", "--game", "connect2", "--run-dir", str(run_dir),
           "--generations", "500", "--workers", "2"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (run_dir / "state.json").exists():
        time.sleep(0.2)
    time.sleep(3.0)   # into the generations
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-2000:]
    assert "interrupted; resume with --resume" in err and "leaked" not in err
    assert json.loads((run_dir / "state.json").read_text())["generation"] < 500
    subprocess.run(_train_cmd(run_dir, 1, resume=True), check=True, timeout=180, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_an_interrupt_that_torch_wraps_in_another_error_still_stops_the_run_cleanly(tmp_path, monkeypatch, capsys):
    """Ctrl+C or SIGTERM while torch imports its compiler (the first optimizer of a run) came out
    as a RuntimeError raised from the KeyboardInterrupt: a traceback and exit code 1."""
    from engine.training import train

    def interrupted_inside_an_import(self, **kw):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            raise RuntimeError("Error calling __set_name__ on 'cached_property' instance") from e

    monkeypatch.setattr(TrainingRun, "run", interrupted_inside_an_import)
    assert train.main(["--game", "connect2", "--run-dir", str(tmp_path / "run"), "--generations", "1"]) == 130
    assert "interrupted; resume with --resume" in capsys.readouterr().err
    monkeypatch.setattr(TrainingRun, "run", lambda self, **kw: (_ for _ in ()).throw(RuntimeError("a real fault")))
    with pytest.raises(RuntimeError, match="a real fault"):
        train.main(["--game", "connect2", "--run-dir", str(tmp_path / "run2"), "--generations", "1"])


def test_hours_start_a_generation_only_where_it_would_end_near_the_deadline():
    assert time_for_another(100.0, None, [50.0])            # no deadline
    assert time_for_another(100.0, 101.0, [])               # the first generation always starts
    assert not time_for_another(101.0, 101.0, [])           # ... but not past the deadline
    assert time_for_another(100.0, 130.0, [60.0])           # ends 30 s past: half a generation
    assert not time_for_another(100.0, 129.0, [60.0])       # more than half past: stop
    # the median of the last three generations: a quick one (reused games) does not fool it
    assert not time_for_another(100.0, 120.0, [5.0, 60.0, 60.0])
    assert time_for_another(100.0, 120.0, [5.0, 40.0, 5.0, 40.0])   # 40 s expected, ends 20 s past
    assert not time_for_another(100.0, 119.0, [5.0, 40.0, 5.0, 40.0])


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads process states from /proc (Linux)")
def test_a_run_stopped_during_self_play_leaves_no_worker_behind(tmp_path):
    # the pool's own shutdown sometimes left idle workers waiting, and the app's trainer
    # process waited on them at exit until it was killed
    game = get_game("connect2")
    for i in range(2):
        seen = {}

        def on_event(e, seen=seen):
            if e["type"] == "selfplay" and "procs" not in seen:
                seen["procs"] = list(run._pool._processes.values())
                run.request_stop()

        run = TrainingRun(game, tmp_path / f"run{i}", workers=2, progress=False, on_event=on_event)
        t0 = time.time()
        run.run(hours=1)
        assert seen["procs"] and time.time() - t0 < 60
        assert not any(_running(p.pid) for p in seen["procs"]), i


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (by the OS, not by the Popen object, which the
    pool's own thread may be reaping at the same moment)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_background_trainer_reports_progress_saves_a_model_and_stops(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    from engine.training.trainer import BackgroundTrainer
    t = BackgroundTrainer("connect2", workers=1, model_path=None, run_dir=tmp_path / "run")
    t.model_path = None  # from scratch: the first evaluated generation is saved
    t.start()
    events = []
    deadline = time.time() + 90
    while time.time() < deadline and not any(e["type"] == "model" for e in events):
        events += t.poll()
        assert not any(e["type"] == "error" for e in events), events
        time.sleep(0.2)
    assert any(e["type"] == "progress" for e in events)
    model = [e for e in events if e["type"] == "model"]
    assert model, events
    assert Path(model[0]["path"]).exists()
    assert Path(model[0]["path"]).is_relative_to(tmp_path / "home")
    t0 = time.time()
    t.stop(timeout=15)
    assert not t.is_running
    assert time.time() - t0 < 20


def test_undecided_games_are_scored_by_the_heuristic_when_asked():
    import math

    from engine.core.config import SelfPlaySettings
    from engine.core.evaluators import UniformEvaluator
    from engine.core.selfplay import ADJUDICATED_MAX, SamplesBatch, play_games

    game = get_game("xiangqi")
    shape = (game.num_planes, *game.board_shape)
    base = dict(sims=4, games_per_generation=6, parallel_games=6, leaf_batch=1, max_plies=30,
                temperature_moves=30, resign_threshold=0)
    # off (the default): a capped game is a draw and teaches 0
    recs, stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**base), 6, seed=3)
    assert stats.adjudicated == 0
    assert all(r.adjudicated is None for r in recs)
    assert not SamplesBatch.from_records([r for r in recs if r.winner is None], shape).z.any()
    # on: the value target of each side is 0.8 tanh(material / scale), opposite for the two players
    recs, stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**base, adjudicate_scale=10.0), 6, seed=3)
    capped = [r for r in recs if r.winner is None]
    assert capped and stats.adjudicated == len(capped)
    for r in capped:
        s = game.initial_state()
        for a in r.moves:
            s = s.apply(a)
        assert r.adjudicated == pytest.approx(ADJUDICATED_MAX * math.tanh(s.heuristic(0) / 10.0))
        assert abs(r.adjudicated) < 1.0   # never worth a real win
        z = SamplesBatch.from_records([r], shape).z
        for zi, player in zip(z, r.players):
            assert zi == pytest.approx(r.adjudicated if player == 0 else -r.adjudicated, abs=1e-6)
    assert any(abs(r.adjudicated) > 0 for r in capped), "30 random plies capture something"


def test_a_lasting_material_lead_ends_a_self_play_game_for_the_leader():
    from engine.core.config import SelfPlaySettings
    from engine.core.evaluators import UniformEvaluator
    from engine.core.selfplay import ADJUDICATED_MAX, GameRecord, SamplesBatch, lasting_leader, play_games

    class Lead:
        def __init__(self, h):
            self.h = h

        def heuristic(self, player):
            return self.h if player == 0 else -self.h

    rec = GameRecord()
    # a lead must last: 3 positions of at least 4 for the same side, broken by any other
    seen = [lasting_leader(rec, Lead(h), 4.0, 3) for h in (5, 4, -6, -4, -9, 3, 8, 8, 8)]
    assert seen == [None, None, None, None, 1, None, None, None, 0]
    assert lasting_leader(GameRecord(), Lead(50), 0.0, 1) is None   # off
    assert lasting_leader(GameRecord(), object(), 4.0, 1) is None   # no heuristic

    game = get_game("xiangqi")
    shape = (game.num_planes, *game.board_shape)
    base = dict(sims=4, games_per_generation=8, parallel_games=8, leaf_batch=1, max_plies=60,
                temperature_moves=60, resign_threshold=0, resign_check_share=0.0)
    recs, stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**base), 8, seed=5)
    assert stats.lead_won == 0 and all(r.lead_won is None for r in recs)
    settings = SelfPlaySettings(**base, material_adjudicate=4.0, material_adjudicate_plies=4)
    recs, stats = play_games(game, UniformEvaluator(), settings, 8, seed=5)
    ended = [r for r in recs if r.lead_won is not None]
    assert ended and stats.lead_won == len(ended), "random play drops pieces within 60 plies"
    for r in ended:
        s, run = game.initial_state(), 0
        for i, a in enumerate(r.moves):
            s = s.apply(a)
            lead = s.heuristic(r.lead_won)
            run = run + 1 if lead >= 4.0 else 0
            assert run < 4 or i == len(r.moves) - 1, "the game goes on past its lasting lead"
        assert run == 4 and not s.is_terminal() and r.winner is None
        assert r.adjudicated == (ADJUDICATED_MAX if r.lead_won == 0 else -ADJUDICATED_MAX)
        z = SamplesBatch.from_records([r], shape).z
        assert all(zi == pytest.approx(r.adjudicated if p == 0 else -r.adjudicated) for zi, p in zip(z, r.players))
    assert sum(stats.wins) + stats.draws == stats.games
    # the checked share plays on and counts whether the leader went on to win
    recs, stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**{**base, "resign_check_share": 1.0},
                             material_adjudicate=4.0, material_adjudicate_plies=4), 8, seed=5)
    assert stats.lead_won == 0 and stats.lead_checked > 0
    checked = [r for r in recs if r.would_lead_win is not None]
    assert stats.false_lead == sum(r.winner != r.would_lead_win for r in checked)


def test_lead_adjudication_settings_are_checked(tmp_path):
    path = tmp_path / "c.toml"
    for text in ("[selfplay]\nmaterial_adjudicate = -1.0\n", "[selfplay]\nmaterial_adjudicate = nan\n",
                 "[selfplay]\nmaterial_adjudicate_plies = 0\n"):
        path.write_text(text)
        with pytest.raises(ValueError):
            load_config(get_game("xiangqi"), path)


def test_self_play_searches_with_the_configured_draw_contempt(monkeypatch):
    import engine.core.selfplay as selfplay
    from engine.core.config import SelfPlaySettings
    from engine.core.evaluators import UniformEvaluator

    seen = []

    class Recording(selfplay.MCTS):
        def __init__(self, evaluator, config=None, seed=None):
            seen.append(config.draw_value)
            super().__init__(evaluator, config, seed)

    monkeypatch.setattr(selfplay, "MCTS", Recording)
    game = get_game("tictactoe")
    settings = dict(sims=4, parallel_games=2, leaf_batch=1, resign_threshold=0)
    selfplay.play_games(game, UniformEvaluator(), SelfPlaySettings(**settings), 2, seed=1)
    selfplay.play_games(game, UniformEvaluator(), SelfPlaySettings(**settings, draw_value=-0.6), 2, seed=1)
    assert seen == [0.0, -0.6]
    assert load_config(get_game("tictactoe")).selfplay.draw_value == 0.0  # off unless a game asks for it
    assert load_config(get_game("xiangqi")).selfplay.draw_value < 0


def test_a_run_resumed_with_other_settings_records_them_in_run_json(tmp_path):
    from dataclasses import replace

    game = get_game("connect2")
    cfg = load_config(game)
    TrainingRun(game, tmp_path, cfg, progress=False)
    info = json.loads((tmp_path / "run.json").read_text())
    # a setting added to the code after the run began counts as its default: no change
    del info["config"]["selfplay"]["draw_value"]
    (tmp_path / "run.json").write_text(json.dumps(info))
    TrainingRun(game, tmp_path, cfg, progress=False)
    assert "config_changes" not in json.loads((tmp_path / "run.json").read_text())
    hotter = replace(cfg, selfplay=replace(cfg.selfplay, temperature_moves=9, draw_value=-0.5))
    for _ in range(2):  # the second resume with the same settings adds nothing
        TrainingRun(game, tmp_path, hotter, progress=False)
    changes = json.loads((tmp_path / "run.json").read_text())["config_changes"]
    assert len(changes) == 1 and changes[0]["from_generation"] == 1
    assert changes[0]["config"]["selfplay"]["temperature_moves"] == 9
    assert changes[0]["config"]["selfplay"]["draw_value"] == -0.5
    # resumed once more before any generation was made with those settings: they made nothing,
    # so the latest settings replace them (here the original ones, so no change remains)
    TrainingRun(game, tmp_path, cfg, progress=False)
    assert "config_changes" not in json.loads((tmp_path / "run.json").read_text())
    TrainingRun(game, tmp_path, hotter, progress=False)
    assert len(json.loads((tmp_path / "run.json").read_text())["config_changes"]) == 1


def test_resume_without_config_goes_on_with_the_runs_own_settings(tmp_path):
    from dataclasses import replace

    from engine.training.train import resumed_config

    game = get_game("connect2")
    cfg = load_config(game)
    hotter = replace(cfg, selfplay=replace(cfg.selfplay, temperature_moves=9, value_q_weight=0.25))
    TrainingRun(game, tmp_path, hotter, progress=False)
    assert resumed_config(game, tmp_path) == hotter          # not engine/core/configs' settings
    colder = replace(cfg, selfplay=replace(cfg.selfplay, temperature_moves=1))
    TrainingRun(game, tmp_path, colder, progress=False)      # a resume with --config records it
    assert resumed_config(game, tmp_path) == colder
    # saved by an older version: a setting it lacked is the default, one it had and this
    # version dropped is ignored (and named on stderr)
    info = json.loads((tmp_path / "run.json").read_text())
    del info["config_changes"][-1]["config"]["selfplay"]["value_q_weight"]
    info["config_changes"][-1]["config"]["train"]["retired_setting"] = 3
    (tmp_path / "run.json").write_text(json.dumps(info))
    assert resumed_config(game, tmp_path) == colder
    (tmp_path / "run.json").write_text("{not json")
    with pytest.raises(ValueError, match="unreadable"):
        resumed_config(game, tmp_path)
    (tmp_path / "run.json").write_text(json.dumps({"game_key": "connect4", "config": {}}))
    with pytest.raises(ValueError, match="connect4 run"):
        resumed_config(game, tmp_path)


def test_value_target_mixes_the_outcome_with_the_searchs_value():
    import numpy as np

    from engine.core.config import SelfPlaySettings
    from engine.core.evaluators import UniformEvaluator
    from engine.core.selfplay import SamplesBatch, _outcome, play_games

    game = get_game("tictactoe")
    shape = (game.num_planes, *game.board_shape)
    settings = SelfPlaySettings(sims=40, parallel_games=8, leaf_batch=1, temperature_moves=9, resign_threshold=0)
    recs, _ = play_games(game, UniformEvaluator(), settings, 8, seed=5)
    won = [r for r in recs if r.winner is not None]
    assert won, "8 random-ish games of tictactoe have a winner"
    for r in recs:
        assert len(r.root_values) == len(r.planes)
        outcome = np.array([_outcome(r, p) for p in r.players], np.float32)
        np.testing.assert_allclose(SamplesBatch.from_records([r], shape).z, outcome)   # off by default
        mixed = SamplesBatch.from_records([r], shape, q_weight=0.5).z
        np.testing.assert_allclose(mixed, 0.5 * outcome + 0.5 * np.array(r.root_values), atol=1e-6)
    for r in won:
        # the winner's last position has a win in one, which the search proves: its value is exact
        assert r.players[-1] == r.winner and r.root_values[-1] == 1.0
        assert SamplesBatch.from_records([r], shape, q_weight=0.5).z[-1] == pytest.approx(1.0)


def test_the_generation_arena_samples_a_short_opening_only():
    from engine.training.train import ARENA_OPENING_MAX, arena_opening_plies

    assert arena_opening_plies(load_config(get_game("connect4")).selfplay.temperature_moves) == 7   # 14 // 2
    # xiangqi self-play samples 30 plies; its arena samples fewer, or it measures noise
    assert load_config(get_game("xiangqi")).selfplay.temperature_moves > 2 * ARENA_OPENING_MAX
    assert arena_opening_plies(load_config(get_game("xiangqi")).selfplay.temperature_moves) == ARENA_OPENING_MAX
    assert arena_opening_plies(0) == 2


def test_a_run_resumed_with_global_pooling_widens_its_network_and_keeps_its_optimizer(tmp_path):
    """``[net] global_pool`` given to a run whose network has none: the next generation starts
    from the same weights with zero pooling layers, and Adam's moments stay with the weights
    they belong to (renumbered, not thrown away)."""
    from dataclasses import replace
    game = get_game("connect2")
    torch.manual_seed(2)
    cfg = load_config(game)
    run = TrainingRun(game, tmp_path, cfg, workers=1, progress=False)
    run.run(generations=2)
    run.close()
    net2, _ = load_network(tmp_path / "checkpoints" / "gen_000002.pt", game)
    assert net2.cfg.global_pool == 0
    before = torch.load(tmp_path / "optimizer.pt", weights_only=True)
    steps = {i: float(st["step"]) for i, st in before["state"].items()}
    pooled = replace(cfg, net=replace(cfg.net, global_pool=1))
    run = TrainingRun(game, tmp_path, pooled, workers=1, progress=False)
    run.run(generations=1)
    run.close()
    net3, meta = load_network(tmp_path / "latest.pt", game)
    assert meta["generation"] == 3 and net3.cfg.global_pool == 1
    names = [n for n, _ in net3.named_parameters()]
    after = torch.load(tmp_path / "optimizer.pt", weights_only=True)
    assert len(after["state"]) == len(names)
    old_names = [n for n, _ in net2.named_parameters()]
    for i, n in enumerate(old_names):   # the old weights' moments went on counting
        assert float(after["state"][names.index(n)]["step"]) == steps[i] + cfg.train.steps_per_generation
    fc = [i for i, n in enumerate(names) if ".pool_fc." in n]
    assert fc and all(float(after["state"][i]["step"]) == cfg.train.steps_per_generation for i in fc)
    assert any(float(p.detach().abs().sum()) > 0 for n, p in net3.named_parameters() if ".pool_fc." in n)   # it learnt


def test_resume_refuses_a_missing_or_empty_run_directory(tmp_path, capsys):
    from engine.training.train import main as train_main
    empty = tmp_path / "empty"
    empty.mkdir()
    for run_dir in (tmp_path / "missing", empty):
        rc = train_main(["--game", "connect2", "--run-dir", str(run_dir), "--generations", "1", "--workers", "1",
                         "--quiet", "--resume"])
        assert rc == 2 and "no run to resume" in capsys.readouterr().err
    assert not (tmp_path / "missing").exists() and not any(empty.iterdir())


def test_the_background_trainer_goes_on_with_the_shipped_lines_settings(tmp_path, monkeypatch):
    """A trained model goes on with models/<game>.train.toml over the game's settings (its small
    learning rate, the kept self-play), a random network with the game's own."""
    import queue
    import threading
    from engine.core.checkpoint import metadata
    from engine.core.config import load_config
    from engine.core.paths import models_dir
    from engine.training import train, trainer
    from games import get_game
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    files = sorted(models_dir().glob("*.train.toml"))
    assert {f.name.split(".")[0] for f in files} >= {"connect4", "gomoku", "othello", "xiangqi"}
    for f in files:   # each belongs to a shipped model and loads over its game's settings
        key = f.name.split(".")[0]
        game = get_game(key)
        assert (models_dir() / f"{key}.pt").exists()
        cfg = load_config(game, f)
        assert cfg.train.lr < load_config(game).train.lr
        # and reads the input planes the shipped network reads (a run cannot take planes away)
        shipped = metadata(models_dir() / f"{key}.pt")["net"]["in_planes"]
        assert (cfg.net.in_planes or game.num_planes) == shipped, key
    seen = {}

    class Captured(Exception):
        pass

    def fake_run(game, run_dir, cfg=None, **kw):
        seen["cfg"] = cfg
        raise Captured()
    monkeypatch.setattr(train, "TrainingRun", fake_run)
    t = trainer.BackgroundTrainer("gomoku", workers=1, run_dir=tmp_path / "run")
    assert t.config_path == models_dir() / "gomoku.train.toml"
    events = queue.Queue()
    trainer._trainer_main("gomoku", str(tmp_path / "run"), str(t.model_path), 1, events, threading.Event(),
                          str(t.config_path))
    expected = load_config(get_game("gomoku"), t.config_path)
    assert seen["cfg"] == expected and seen["cfg"].selfplay.random_opening_share == 0.5
    assert events.get_nowait()["type"] == "error"   # the fake run's exception, reported
    scratch = trainer.BackgroundTrainer("gomoku", workers=1, run_dir=tmp_path / "r2", model_path="")
    assert scratch.config_path is None


def test_learning_steps_in_channels_last_give_the_same_losses_and_save_a_standard_checkpoint(tmp_path):
    from dataclasses import replace

    game = get_game("tictactoe")
    cfg = load_config(game)
    cfg = replace(cfg, train=replace(cfg.train, steps_per_generation=5, min_buffer=1, arena_games=0, baseline_games=0))
    losses = {}
    for last in (False, True):
        torch.manual_seed(3)
        np.random.seed(3)
        run_dir = tmp_path / f"run-{last}"
        run = TrainingRun(game, run_dir, replace(cfg, train=replace(cfg.train, channels_last=last)),
                          workers=1, progress=False)
        run.rng = np.random.default_rng(3)
        run.run(generations=1)
        losses[last] = json.loads((run_dir / "metrics.jsonl").read_text().splitlines()[-1])["loss"]
        saved = torch.load(run_dir / "latest.pt", weights_only=True)["state_dict"]
        assert all(t.is_contiguous() for t in saved.values())   # stored in the standard layout
        assert torch.load(run_dir / "optimizer.pt", weights_only=True)["state"]
    assert losses[True] == pytest.approx(losses[False], rel=1e-3)


def test_a_resumed_background_run_still_has_to_beat_the_shipped_model(tmp_path, monkeypatch):
    """Defect: a run resumed (after a stop or a restart of the app) while no trained model was
    saved yet forgot the shipped model it had to beat, and saved its next evaluated network as
    the user's model without a match, however weak it was."""
    import shutil
    from types import SimpleNamespace
    from engine.core.paths import models_dir, user_model_path
    from engine.play import arena
    from engine.training import train, trainer
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "state.json").write_text("{}")   # a run to resume
    shutil.copy(models_dir() / "tictactoe.pt", tmp_path / "gen.pt")
    matches = []

    class FakeRun:
        def __init__(self, game, run_dir, on_event=None, init_model=None, **kw):
            assert init_model is None   # resumed, not started again
            self.on_event, self.state = on_event, {"generation": 40}

        def ckpt_path(self, generation):
            return tmp_path / "gen.pt"

        def request_stop(self):
            pass

        def run(self, hours=None):
            self.on_event({"type": "progress", "generation": 42})

    def weaker(game, a, b, games, on_game=None):
        matches.append(games)
        return SimpleNamespace(score=0.4, wins=2, draws=12, losses=6)
    monkeypatch.setattr(train, "TrainingRun", FakeRun)
    monkeypatch.setattr(arena, "play_match", weaker)
    t = trainer.BackgroundTrainer("tictactoe", workers=1, run_dir=run_dir)
    started = {}
    monkeypatch.setattr(t._ctx, "Process", lambda target, args, **kw: SimpleNamespace(
        start=lambda: started.update(target=target, args=args), is_alive=lambda: True, exitcode=None))
    t.start()
    started["target"](*started["args"])
    events = t.poll()
    assert matches == [trainer.PROMOTE_GAMES]   # played against the shipped model
    assert not [e for e in events if e.get("type") == "model"] and not user_model_path("tictactoe").exists()
