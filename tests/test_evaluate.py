"""Strength suites: connect2's exhaustive check runs end to end; connect4's benchmark on a few positions."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.commands import evaluate
from engine.commands.evaluate import SUITES
from engine.core.paths import resource_root
from games import get_game

CONNECT4_BENCH = (resource_root() / SUITES["connect4"]["folder"]).resolve()


def run(capsys, *argv) -> tuple[int, dict | None, str]:
    code = evaluate.main(list(argv))
    out = capsys.readouterr()
    return code, (json.loads(out.out) if out.out.strip() else None), out.err


@pytest.fixture(scope="module")
def connect2_model(tmp_path_factory):
    from conftest import tiny_model_file
    return tiny_model_file(tmp_path_factory.mktemp("model"), "connect2", seed=0, generation=5)


def test_connect2_suite_checks_every_position_and_never_loses(capsys, tmp_path, connect2_model):
    out_file = tmp_path / "connect2.json"
    code, report, _ = run(capsys, "--game", "connect2", "--model", str(connect2_model), "--games", "6",
                          "--out", str(out_file))
    assert code == 0
    results = report["results"]
    assert report["suite"] == "solved" and report["level"] == "strong" and report["sims"] == 800
    assert results["positions"] == results["reachable_positions"] > 0
    assert results["non_optimal"] == 0 and results["never_lost"]
    assert results["vs_solver"]["games"] == 6 and results["vs_random"]["games"] == 6
    assert report["model"]["generation"] == 5 and report["model"]["created"]
    assert report["machine"]["cores"] >= 1 and report["wall_seconds"] >= 0
    assert report["summary"].startswith("Perfect play")
    assert report["proofs"] == ""   # connect2 has no proven_value hook
    assert json.loads(out_file.read_text(encoding="utf-8")) == report


def test_connect4_benchmark_on_a_few_positions_per_file(capsys):
    code, report, err = run(capsys, "--game", "connect4", "--limit", "3", "--sims", "40")
    assert code == 0, err
    sets = report["results"]["sets"]
    assert [s["file"] for s in sets] == ["Test_L3_R1.labels", "Test_L2_R1.labels", "Test_L1_R1.labels",
                                         "Test_L2_R2.labels"]
    for s in sets:
        assert s["positions"] == 3 and 0 <= s["errors"] <= 3
        assert s["error_rate"] == pytest.approx(s["errors"] / 3, abs=1e-4)
        assert len(s["error_examples"]) == s["errors"]
        assert all(e["move"] not in e["optimal"] for e in s["error_examples"])
    assert report["summary"].startswith("Benchmark error rate")
    assert "exact results with 14 or fewer empty cells" in report["proofs"]   # what was measured


def test_benchmark_errors_are_listed_with_the_position_and_the_moves(capsys, tmp_path):
    # X (to move) wins at once in column 1; the labels claim column 7 is the only good move
    names = ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L2_R2"]
    for name in names:
        (tmp_path / f"{name}.labels").write_text("121212 1 7\n4444 0 4\n", encoding="utf-8")
    code, report, err = run(capsys, "--game", "connect4", "--sims", "60", "--bench-dir", str(tmp_path))
    assert code == 0, err
    for s in report["results"]["sets"]:
        assert s["errors"] >= 1
        wrong = [e for e in s["error_examples"] if e["position"] == "121212"]
        assert wrong == [{"position": "121212", "move": "1", "optimal": ["7"]}]


def test_a_missing_benchmark_folder_is_a_clear_error(capsys, tmp_path):
    code, report, err = run(capsys, "--game", "connect4", "--limit", "1", "--bench-dir", str(tmp_path / "nowhere"))
    assert code == 1 and report is None
    assert "nowhere" in err and "missing" in err


def test_labelled_positions_are_read_with_their_optimal_moves(tmp_path):
    game = get_game("connect4")
    f = tmp_path / "t.labels"
    f.write_text("4453 12 6\n44444444 0 1\n1 2\n12 -3 17\n", encoding="utf-8")
    states, optimal, bad = evaluate.read_labelled_positions(game, f, None)
    assert [s.to_text() for s in states] == ["4453", "12"]
    assert optimal == [{5}, {0, 6}] and bad == 2


def test_games_are_split_into_whole_pairs_so_each_process_starts_half_its_games():
    slices = evaluate._split_pairs(10, 3)
    assert sorted(i for s in slices for i in s) == list(range(10))
    for s in slices:
        assert sum(i % 2 == 0 for i in s) == sum(i % 2 == 1 for i in s)
    assert evaluate._split_pairs(2, 4) == [[0, 1]]  # no empty slices


@pytest.fixture(scope="module")
def connect4_model(tmp_path_factory):
    from conftest import tiny_model_file
    return tiny_model_file(tmp_path_factory.mktemp("model"), "connect4", seed=1, generation=2)


def test_positions_searched_in_two_processes_get_the_moves_one_process_chooses(connect4_model):
    from engine.core.mcts import MCTS, SearchConfig
    from engine.play.players import load_evaluator
    game = get_game("connect4")
    states = [game.state_from_text(t) for t in ("", "4", "44", "4453", "1234567", "3344")]
    evaluator, _ = load_evaluator(game, str(connect4_model))
    alone = evaluate.best_moves(MCTS(evaluator, SearchConfig(), seed=0), states, 24)
    assert evaluate.best_moves_parallel(game, str(connect4_model), states, 24, 2, seed=0) == alone


def test_a_match_in_two_processes_plays_every_game_once(connect4_model):
    game = get_game("connect4")
    result, lost = evaluate._parallel_match(game, str(connect4_model), 2, "random", 5, games=8, workers=2, seed=0)
    assert result.games == 8 and result.wins + result.draws + result.losses == 8
    assert len(lost) == min(result.losses, evaluate.KEPT_LOSSES)
    for record in lost:  # each kept loss replays to a finished game the AI lost
        final = game.state_from_text(record["moves"])
        assert final.is_terminal() and final.winner() == 1 - record["ai"]


def test_match_scores_keep_their_half_points():
    from engine.commands.evaluate import percent

    assert percent(18.5 / 20) == "92.5%"   # whole percents would round this to 92%
    assert percent(0.9) == "90%" and percent(1.0) == "100%" and percent(0.0) == "0%"
    assert percent(0.99) == "99%"


def test_a_new_report_keeps_the_strong_visits_measured_apart(capsys, tmp_path, connect2_model):
    """models/<game>.json carries strong_visits (benchmarks/strong_visits.py); writing a new
    strength report over it must not drop them, nor take another game's."""
    out_file = tmp_path / "connect2.json"
    out_file.write_text(json.dumps({"game": "connect2", "strong_visits": 1234, "strong_visits_method": "m",
                                    "level_visits": {"medium": 30}, "level_visits_method": "r",
                                    "sims": 1}), encoding="utf-8")
    code, report, _ = run(capsys, "--game", "connect2", "--model", str(connect2_model), "--games", "2",
                          "--out", str(out_file))
    assert code == 0
    written = json.loads(out_file.read_text(encoding="utf-8"))
    assert written["strong_visits"] == 1234 and written["strong_visits_method"] == "m" and written["sims"] == 800
    assert written["level_visits"] == {"medium": 30} and written["level_visits_method"] == "r"
    out_file.write_text(json.dumps({"game": "connect4", "strong_visits": 99}), encoding="utf-8")
    assert run(capsys, "--game", "connect2", "--model", str(connect2_model), "--games", "2",
               "--out", str(out_file))[0] == 0
    assert "strong_visits" not in json.loads(out_file.read_text(encoding="utf-8"))
    out_file.write_text("{ not json", encoding="utf-8")
    assert run(capsys, "--game", "connect2", "--model", str(connect2_model), "--games", "2",
               "--out", str(out_file))[0] == 0
    assert json.loads(out_file.read_text(encoding="utf-8"))["game"] == "connect2"
