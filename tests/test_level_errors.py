"""benchmarks/level_errors.py reads the rating matches' game records and picks out the named
level's own moves, whichever colour it played and whichever side of the match it was."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from games import get_game

ROOT = Path(__file__).resolve().parent.parent


def _module():
    spec = importlib.util.spec_from_file_location("level_errors_under_test", ROOT / "benchmarks" / "level_errors.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _write(folder: Path, name: str, records) -> None:
    (folder / f"{name}.games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_players_are_read_from_the_file_name():
    le = _module()
    assert le.players_of(Path("level_hard_cap_0__vs__level_medium_cap_0__1.games.jsonl")) == ("hard", "medium")
    assert le.players_of(Path("level_easy_cap_0__vs__uci_usr_games_fairy-stockfish_depth1__0.games.jsonl")) \
        == ("easy", None)
    assert le.players_of(Path("rollout_400__vs__level_max_cap_0__0.games.jsonl")) == (None, "max")


def test_the_levels_own_moves_are_picked_in_either_role_and_colour(tmp_path):
    le = _module()
    game = get_game("tictactoe")
    moves = ["a1", "b2", "c3", "b1", "b3"]
    # as A moving first, as A moving second, as B moving first (A second): 3, 2 and 3 of the moves
    _write(tmp_path, "level_easy_cap_0__vs__random__0",
           [{"game": 1, "a_first": True, "start": "", "moves": moves},
            {"game": 2, "a_first": False, "start": "", "moves": moves}])
    _write(tmp_path, "random__vs__level_easy_cap_0__0",
           [{"game": 1, "a_first": False, "start": "", "moves": moves}])
    records = le.level_records(tmp_path, "easy", 10)
    assert len(records) == 3
    picked = le.level_moves(game, records, "easy")
    texts = [s.action_to_text(a) for s, a in picked]
    # records are taken in turn from each file: game 1 of the first file, the second file's game, then game 2
    assert texts == ["a1", "c3", "b3"] + ["a1", "c3", "b3"] + ["b2", "b1"]
    # every picked move is made by the side to move in its position
    for state, action in picked:
        assert action in state.legal_actions()
    assert le.level_records(tmp_path, "hard", 10) == []
    assert len(le.level_records(tmp_path, "easy", 2)) == 2
