"""analyse, arena and bench print valid JSON; bad arguments exit with code 2 and say why."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.commands.specs import SpecError, player_from_spec
from engine.play.baselines import has_heuristic
from engine.play.arena import record_positions
from engine.commands.cli import analyse_main, arena_main, bench_main, position_from_line
from engine.core import mcts as mcts_module
from games import get_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    from conftest import tiny_model_file
    return tiny_model_file(tmp_path_factory.mktemp("model"), "tictactoe", seed=0, generation=2)


def json_lines(capsys) -> list[dict]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


# --- analyse --------------------------------------------------------------------------------

def test_analyse_prints_the_move_value_and_top_moves(capsys, model):
    assert analyse_main(["--game", "tictactoe", "--position", "a1 b2 a2", "--sims", "200",
                         "--model", str(model), "--top", "3"]) == 0
    [rec] = json_lines(capsys)
    assert rec["position"] == "a1 b2 a2" and rec["move"] == "a3"  # the only move that does not lose
    assert -1 <= rec["value"] <= 1 and rec["sims"] == 200
    assert len(rec["top"]) == 3 and rec["top"][0]["move"] == "a3"
    assert set(rec["top"][0]) == {"move", "visits", "q", "prior"}
    assert sum(m["visits"] for m in rec["top"]) <= 199


def test_analyse_says_when_the_search_proved_the_result(capsys, model):
    positions = {"a1 b1 a2 b2": "win",       # X to move: a3 wins at once
                 "a1 b2 c3 a3 c1": "loss",   # O to move, no win of its own: X threatens b1 and c2
                 "": None}                   # the start: a draw, too deep to prove in 300 visits
    for position, proven in positions.items():
        assert analyse_main(["--game", "tictactoe", "--position", position, "--sims", "300",
                             "--model", str(model)]) == 0
        [rec] = json_lines(capsys)
        assert rec.get("proven") == proven, (position, rec)
        if proven:
            assert rec["value"] == (1.0 if proven == "win" else -1.0)


def test_analyse_takes_rollout_as_the_engines_do(capsys):
    """``--model rollout`` is the rollout search, as the engine protocols take it (it was "rollout:
    no such model file"), and asking for it is not reported as a missing model."""
    assert analyse_main(["--game", "tictactoe", "--position", "a1 b1 a2 b2", "--sims", "50",
                         "--model", "rollout"]) == 0
    out = capsys.readouterr()
    [rec] = [json.loads(line) for line in out.out.splitlines()]
    assert rec["move"] == "a3" and rec["proven"] == "win"
    assert "no model" not in out.err


def test_analyse_a_positions_file_reports_bad_lines_and_goes_on(capsys, tmp_path):
    lines = ["4453 12 6   (the rest of a line is ignored)", "", "# a comment", "44444444", "1212121 x",
             "1234567"]
    f = tmp_path / "positions.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert analyse_main(["--game", "connect4", "--positions-file", str(f), "--sims", "30", "--batch", "2"]) == 0
    recs = json_lines(capsys)
    assert [r["position"] for r in recs] == ["4453", "44444444", "1212121", "1234567"]
    assert "move" in recs[0] and "move" in recs[3]
    assert "full" in recs[1]["error"]
    assert "over" in recs[2]["error"]  # the first player has won: nothing to search


@pytest.mark.skipif(importlib.util.find_spec("games.xiangqi") is None, reason="xiangqi has not landed yet")
def test_xiangqi_positions_take_the_whole_line_up_to_a_tab(capsys, tmp_path):
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    assert position_from_line(fen + "\tcomment\n", whole_line=True) == fen
    f = tmp_path / "xq.txt"
    f.write_text(f"{fen}\tstart\n{fen} moves h2e2\nnot a fen\n", encoding="utf-8")
    assert analyse_main(["--game", "xiangqi", "--positions-file", str(f), "--sims", "8"]) == 0
    recs = json_lines(capsys)
    assert recs[0]["position"] == fen and "move" in recs[0]
    assert recs[1]["position"] == fen + " moves h2e2" and "move" in recs[1]
    assert "error" in recs[2]


def test_analyse_with_a_bad_model_or_arguments_exits_2(capsys, tmp_path):
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a model")
    assert analyse_main(["--game", "tictactoe", "--model", str(junk)]) == 2
    assert str(junk) in capsys.readouterr().err
    assert analyse_main(["--game", "tictactoe", "--sims", "0"]) == 2
    assert analyse_main(["--game", "chess"]) == 2
    assert analyse_main(["--game", "tictactoe", "--positions-file", str(tmp_path / "absent.txt")]) == 2
    assert analyse_main(["--game", "tictactoe", "--sims", "5", "--movetime", "5"]) == 2
    assert "unknown game" in capsys.readouterr().err


# --- arena ------------------------------------------------------------------------------------

def test_arena_random_against_random(capsys):
    assert arena_main(["--game", "tictactoe", "--a", "random", "--b", "random", "--games", "6"]) == 0
    [out] = json_lines(capsys)
    assert out["wins"] + out["draws"] + out["losses"] == out["games"] == 6
    assert out["elo_low"] <= out["elo"] <= out["elo_high"]
    assert 0 <= out["score"] <= 1


def test_arena_with_model_policy_rollout_and_solver_specs(capsys, model):
    assert arena_main(["--game", "tictactoe", "--a", f"model:{model}@16", "--b", f"policy:{model}",
                       "--games", "2"]) == 0
    assert json_lines(capsys)[0]["games"] == 2
    assert arena_main(["--game", "connect2", "--a", "solver", "--b", "rollout:20", "--games", "4"]) == 0
    out = json_lines(capsys)[0]
    assert out["losses"] <= 2  # the perfect player can only lose the games it does not start


def test_arena_balanced_openings_give_each_opening_to_both_colours(capsys):
    # two copies of one deterministic player: every pair of games scores exactly one point for A,
    # which holds only if each opening is played once with A on each side
    assert arena_main(["--game", "tictactoe", "--a", "solver", "--b", "solver", "--games", "8",
                       "--balanced-openings", "3", "--seed", "4"]) == 0
    out = json_lines(capsys)[0]
    assert out["games"] == 8 and out["score"] == 0.5 and out["balanced_openings"] == 3
    assert out["opening_plies"] == 0                                      # no sampling on top
    assert out["wins"] == out["losses"] > 0                              # random openings decide games
    assert arena_main(["--game", "tictactoe", "--a", "random", "--b", "random", "--games", "3",
                       "--balanced-openings", "2"]) == 2                 # pairs need an even count
    assert "even" in capsys.readouterr().err


def test_arena_games_out_records_each_game_so_that_it_replays_to_its_result(capsys, tmp_path):
    path = tmp_path / "games.jsonl"
    assert arena_main(["--game", "tictactoe", "--a", "solver", "--b", "random", "--games", "4",
                       "--balanced-openings", "2", "--seed", "3", "--games-out", str(path)]) == 0
    out = json_lines(capsys)[0]
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert [g["game"] for g in lines] == [1, 2, 3, 4] and [g["a_first"] for g in lines] == [True, False] * 2
    assert lines[0]["start"] == lines[1]["start"] and lines[0]["start"] != get_game("tictactoe").initial_state().to_text()
    tally = {"win": 0, "draw": 0, "loss": 0}
    game = get_game("tictactoe")
    for g in lines:
        state = game.state_from_text(g["start"])
        for text in g["moves"]:
            state = state.play(state.parse_action(text))
        assert state.is_terminal()
        states, actions = record_positions(game, g)   # the reader the benchmarks use agrees
        assert states[-1].key() == state.key() and len(actions) == len(g["moves"]) == len(states) - 1
        w = state.winner()
        a_index = 0 if g["a_first"] else 1
        assert g["result"] == ("draw" if w is None else "win" if w == a_index else "loss")
        tally[g["result"]] += 1
    assert (tally["win"], tally["draw"], tally["loss"]) == (out["wins"], out["draws"], out["losses"])
    assert arena_main(["--game", "tictactoe", "--a", "random", "--b", "random", "--games", "2",
                       "--games-out", str(tmp_path / "missing" / "x.jsonl")]) == 2
    assert "cannot write --games-out" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a disk that is always full)")
def test_arena_games_out_on_a_full_disk_still_reports_the_match_and_says_what_is_missing(capsys):
    """Writing --games-out to a full disk once ended the match in an OSError traceback."""
    code = arena_main(["--game", "tictactoe", "--a", "random", "--b", "random", "--games", "2", "--quiet",
                       "--games-out", "/dev/full"])
    out, err = capsys.readouterr()
    assert code == 1 and json.loads(out)["games"] == 2
    assert "cannot write --games-out /dev/full from game 1 on: No space left on device" in err


def test_balanced_openings_start_both_games_of_a_pair_from_the_same_position():
    from engine.play.arena import play_match, random_openings
    game = get_game("connect4")
    openings = random_openings(game, 3, 5, seed=1)
    assert len({o.key() for o in openings}) == 3 and all(len(o.moves) == 5 for o in openings)
    assert [o.key() for o in random_openings(game, 3, 5, seed=1)] == [o.key() for o in openings]
    seen = []

    class First:
        def reset(self):
            self.first = True

        def choose(self, state):
            if self.first:
                seen.append((self.name, state.moves))
                self.first = False
            return type("R", (), {"action": state.legal_actions()[0]})()
    a, b = First(), First()
    a.name, b.name = "a", "b"
    play_match(game, a, b, 6, openings=openings)
    for k, o in enumerate(openings):        # both players met opening k in games 2k and 2k+1
        pair = seen[4 * k:4 * k + 4]
        assert {name for name, _ in pair} == {"a", "b"}
        assert all(moves[:5] == o.moves for _, moves in pair)


@pytest.mark.parametrize("spec", ["bogus", "model:", "model:/no/such/model.pt", "rollout:x", "rollout:0",
                                  "level:godlike", "level:easy?cap=1", "uci:", "uci:/no/such/engine", "greedy", "solver"])
def test_arena_bad_specs_exit_2_with_a_message(capsys, spec):
    game = "connect4"  # no heuristic (greedy) and too big to solve (solver)
    if spec == "greedy" and has_heuristic(get_game(game)):
        pytest.skip("connect4 gained a heuristic")
    assert arena_main(["--game", game, "--a", spec, "--b", "random", "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.strip() and "Traceback" not in err


def test_a_level_spec_with_cap_0_keeps_its_visits_and_drops_only_its_time_cap():
    game = get_game("tictactoe")
    capped = player_from_spec(game, "level:hard", seed=1)
    free = player_from_spec(game, "level:hard?cap=0", seed=1)
    assert capped.seconds and free.seconds is None
    assert free.sims == capped.sims


def test_greedy_player_needs_the_games_heuristic():
    for game_id in ("othello", "xiangqi"):
        if importlib.util.find_spec(f"games.{game_id}") is None:
            continue
        game = get_game(game_id)
        if not has_heuristic(game):
            with pytest.raises(SpecError, match="heuristic"):
                player_from_spec(game, "greedy")
            continue
        player = player_from_spec(game, "greedy", seed=1)
        state = game.initial_state()
        for _ in range(6):
            state = state.play(player.choose(state).action)


def test_main_exits_2_for_bad_arguments():
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "arena", "--game", "tictactoe", "--a", "nope",
                           "--b", "random"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and "nope" in proc.stderr
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "bench"], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and "--game" in proc.stderr


# --- bench ------------------------------------------------------------------------------------

def test_bench_prints_one_json_line_with_the_figures(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))   # the runtime choices it remembers
    assert bench_main(["--game", "tictactoe", "--seconds", "0.05", "--tree-nodes", "400",
                       "--accuracy-positions", "64"]) == 0
    [out] = json_lines(capsys)
    for key in ("net_positions_per_s", "batched_sims_per_s", "single_sims_per_s", "single_unbatched_sims_per_s",
                "batched_efficiency", "leaf_batching_speedup", "tree_100k_mb", "threads", "net_batch",
                "play_runtime", "selfplay_runtime", "single_sims_per_s_by_leaf_batch", "single_vs_net64"):
        assert key in out, key
    assert out["threads"] == 1
    assert out["search_tree"] == ("compiled" if mcts_module._tree_c else "python")
    assert out["net_positions_per_s"] > 0 and out["single_unbatched_sims_per_s"] > 0
    assert out["tree_nodes"] >= 400 and out["tree_total_mb"] > out["tree_arrays_mb"] > 0
    assert out["batched_efficiency"] == pytest.approx(out["batched_sims_per_s"] / out["net_positions_per_s"], rel=0.01)
    speeds = out["runtimes"]["positions_per_s"]
    assert set(speeds) | set(out["runtimes"]["unavailable"]) == {"torch-fp32", "torch-bf16", "ort-fp32", "ort-int8",
                                                                  "ort-int8-static", "ort-int8-checked", "wino-fp32"}
    assert all(set(v) == {"1", "8", "64"} and min(v.values()) > 0 for v in speeds.values())
    accuracy = out["runtimes"]["accuracy_vs_torch_fp32"]
    assert accuracy["ort-fp32"]["mean_value_diff"] < 1e-4 and accuracy["ort-fp32"]["accurate"]
    assert out["play_runtime"] in ("torch-fp32", "ort-fp32", "ort-int8-static", "wino-fp32")
    if "wino-fp32" in accuracy:   # built here: float32 like the others
        assert accuracy["wino-fp32"]["mean_value_diff"] < 1e-4 and accuracy["wino-fp32"]["accurate"]
    assert out["single_sims_per_s_by_leaf_batch"]["1"] == out["single_unbatched_sims_per_s"]
