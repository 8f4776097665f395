"""Connect Four rules, notation, encoding and perft."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from games import NotationError, get_game
from games.connect4 import BOARD, has_four, winning_cells
from games.perft import perft

PONS_SETS = Path(__file__).resolve().parent.parent / "benchmarks" / "connect4"
DRAWN_GAME = "547125662261271266215743771576315353334444"


@pytest.fixture(scope="module")
def game():
    return get_game("connect4")


def test_start_position_offers_all_seven_columns(game):
    s = game.initial_state()
    assert s.legal_actions() == list(range(7))
    assert s.current_player == 0 and not s.is_terminal()


def test_stones_fall_to_the_lowest_empty_cell(game):
    board = game.state_from_text("4443").board_array()
    assert board[5].tolist() == [0, 0, -1, 1, 0, 0, 0]  # row 0 is the top: the bottom row is row 5
    assert board[4, 3] == -1 and board[3, 3] == 1
    assert not board[:3].any()


def test_a_full_column_is_no_longer_legal(game):
    s = game.state_from_text("444444")
    assert 3 not in s.legal_actions()
    with pytest.raises(NotationError, match="column 4 is full"):
        s.parse_action("4")


@pytest.mark.parametrize("moves, line", [
    ("1122334", "horizontal"),
    ("1212121", "vertical"),
    ("12233434474", "diagonal rising to the right"),
    ("76655454414", "diagonal rising to the left"),
    ("4455667", "horizontal at the right edge"),
])
def test_four_in_a_row_wins(game, moves, line):
    s = game.state_from_text(moves)
    assert s.winner() == 0, line
    assert s.is_terminal() and s.legal_actions() == []


def test_four_in_a_row_wins_for_player_1(game):
    s = game.state_from_text("71122334")
    assert s.winner() == 1 and s.terminal_value() == -1.0


def test_lines_do_not_wrap_between_columns_or_rows(game):
    # three stones at the top of column 1 and one at the bottom of column 2
    assert game.state_from_text("7171611615152").winner() is None
    # three at the right end of the bottom row and one at the left of the row above
    assert game.state_from_text("5162731").winner() is None


def test_full_board_without_four_is_a_draw(game):
    s = game.state_from_text(DRAWN_GAME)
    assert len(s.moves) == 42 and s.is_terminal()
    assert s.winner() is None and s.legal_actions() == [] and s.returns() == (0.0, 0.0)


def test_position_text_is_the_digit_string_with_spaces_optional(game):
    s = game.state_from_text("44 5 3")
    assert s.to_text() == "4453"
    assert s.moves == (3, 3, 4, 2)
    assert game.state_from_text("4453") == s


def test_bad_moves_are_rejected_with_the_reason(game):
    s = game.initial_state()
    for bad in ("0", "8", "x", "44"):
        with pytest.raises(NotationError, match="bad column"):
            s.parse_action(bad)
    with pytest.raises(NotationError, match="already over"):
        game.state_from_text("1212121").parse_action("3")


def test_bad_position_text_names_the_move(game):
    with pytest.raises(NotationError, match=r"move 3 \('9'\)"):
        game.state_from_text("449")
    with pytest.raises(NotationError, match=r"move 7 \('4'\).*full"):
        game.state_from_text("4444444")
    with pytest.raises(NotationError, match=r"move 8 .*over"):
        game.state_from_text("12121213")


def test_encode_is_from_the_point_of_view_of_the_player_to_move(game):
    s = game.state_from_text("45")  # player 0 to move
    planes = s.encode()
    assert planes.shape == (2, 6, 7) and planes.dtype == np.float32
    assert planes[0, 5, 3] == 1 and planes[1, 5, 4] == 1 and planes.sum() == 2
    flipped = s.apply(0).encode()  # now player 1 is to move
    assert flipped[0, 5, 4] == 1 and flipped[1, 5, 3] == 1 and flipped[1, 5, 0] == 1


def test_render_draws_the_board_with_column_numbers(game):
    lines = game.state_from_text("45").render().splitlines()
    assert lines[-1] == "1 2 3 4 5 6 7"
    assert lines[-2] == ". . . X O . ."


def test_symmetries_are_identity_and_left_right_mirror(game):
    (c0, a0), (c1, a1) = game.symmetries()
    assert a0.tolist() == list(range(7)) and a1.tolist() == list(range(6, -1, -1))
    assert c1.reshape(6, 7)[0].tolist() == list(range(6, -1, -1))


def test_winning_cells_are_exactly_the_moves_that_complete_four(game):
    board = game.state_from_text("3344557").board_array()  # player 0 threatens columns 2 and 6
    bit = {(r, c): 1 << (c * 7 + 5 - r) for r in range(6) for c in range(7)}  # row 0 = top
    stones = sum(b for rc, b in bit.items() if board[rc] == 1)
    mask = sum(b for rc, b in bit.items() if board[rc] != 0)
    cells = winning_cells(stones, mask)
    for rc, b in bit.items():
        if not b & mask:
            assert bool(cells & b) == has_four(stones | b), rc
    assert cells & BOARD == cells and cells & bit[(5, 1)] and cells & bit[(5, 5)]


def test_perft_matches_the_published_counts(game):
    expected = [7, 49, 343, 2401, 16807, 117649, 823536]
    assert perft(game.initial_state(), 7) == expected
    assert perft(game.initial_state(), 5, use_fast=False) == expected[:5]


def test_perft_from_a_position_agrees_with_the_generic_walk(game):
    s = game.state_from_text("4455661")  # close to wins, so terminal children are pruned
    assert perft(s, 4) == perft(s, 4, use_fast=False)


def test_immediate_wins_agree_with_the_solver_scores_of_the_benchmark_positions(game):
    # the solver scores an immediate win of the player to move as (43 - plies played) // 2, and
    # any later win lower, so "some move wins now" must hold exactly for the positions scored so
    checked = 0
    for path in sorted(PONS_SETS.glob("*.labels")):
        for line in path.read_text().splitlines():
            moves, score = line.split()[:2]
            s = game.state_from_text(moves)
            assert not s.is_terminal(), moves
            wins_now = any(s.apply(a).winner() == s.current_player for a in s.legal_actions())
            assert wins_now == (int(score) == (43 - len(moves)) // 2), moves
            checked += 1
    assert checked >= 1000


def brute_force(state) -> int:
    """The exact result for the player to move (1, 0, -1), by trying every line to the end
    (a fresh minimax table each time, so no answer leans on another)."""
    from engine.play.solver import Solver
    return Solver().value(state)


def test_proven_value_is_sound():
    """With more than SOLVE_EMPTIES empty cells: 1.0 exactly when a move wins at once; -1.0 only
    when every move lets the opponent win at once (not always then: a threat stacked on the cell
    the block fills is not counted). With SOLVE_EMPTIES or fewer: the exact result, checked by
    brute force at 8 empty cells or fewer, and above that by the rule that a position is worth
    the best of its moves (so, cell by cell from the brute-forced ones, exact as well)."""
    import random

    from conftest import lost_in_two, quiet_moves, win_in_one

    import games.connect4 as c4
    game = get_game("connect4")
    rng = random.Random(4)
    seen = {1.0: 0, 0.0: 0, -1.0: 0, None: 0}
    brute = recurrence = 0
    for _ in range(150):
        s = game.initial_state()
        while not s.is_terminal():
            v = s.proven_value()
            empty = 42 - len(s.moves)
            if empty > c4.SOLVE_EMPTIES:
                assert (v == 1.0) == win_in_one(s), s.to_text()
                if v == -1.0:
                    assert lost_in_two(s), s.to_text()
            elif empty <= 8:
                assert v == brute_force(s), s.to_text()
                brute += 1
            else:
                kids = [s.apply(a) for a in s.legal_actions()]
                best = max((0.0 if k.winner() is None else 1.0) if k.is_terminal() else -k.proven_value()
                           for k in kids)
                assert v == best, s.to_text()
                recurrence += 1
            seen[v] += 1
            s = s.apply(rng.choice(quiet_moves(s) or s.legal_actions()))
    assert all(seen.values()) and brute > 300 and recurrence > 300, (seen, brute, recurrence)


def test_the_endgame_solver_agrees_with_brute_force_from_a_cold_start():
    """`solve` keeps results between calls; each position here is solved with that memory
    emptied first, so no answer leans on an earlier one."""
    import random

    import games.connect4 as c4
    game = get_game("connect4")
    rng = random.Random(11)
    checked = {1: 0, 0: 0, -1: 0}
    while sum(checked.values()) < 200:
        s = game.initial_state()
        target = rng.randint(1, 9)
        while 42 - len(s.moves) > target and not s.is_terminal():
            s = s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        c4.clear_solved()
        v = c4.solve(s._cur, s._mask)
        assert v == brute_force(s), s.to_text()
        checked[v] += 1
    assert all(checked.values()), checked


def test_the_endgame_solver_can_be_switched_off_for_measurements():
    """ZEROBOARD_CONNECT4_SOLVE_EMPTIES=0 leaves the network and search alone (to measure them);
    a value that is not a number keeps the default."""
    import os
    import subprocess
    import sys
    code = ("import games.connect4 as c; from games import get_game; "
            "s = get_game('connect4').state_from_text('6325545234341241463145211613'); "
            "print(c.SOLVE_EMPTIES, s.proven_value())")
    root = str(Path(__file__).resolve().parent.parent)
    out = {}
    for value in ("0", "nonsense", "99", None):
        env = {k: v for k, v in os.environ.items() if k != "ZEROBOARD_CONNECT4_SOLVE_EMPTIES"}
        if value is not None:
            env["ZEROBOARD_CONNECT4_SOLVE_EMPTIES"] = value
        out[value] = subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True,
                                    text=True, check=True).stdout.split()
    assert out["0"] == ["0", "None"]   # off: 14 empty cells and no win in one for either side
    assert out["nonsense"] == out[None] and out[None][0] == "14" and out[None][1] in ("1.0", "0.0", "-1.0")
    assert out["99"][0] == "20"        # capped: solving from the start would take hours
