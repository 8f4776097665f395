"""The study panel's exact readouts: how far a solved win or loss is (the winner fastest, the
loser slowest) and othello's final disc margin, each checked against a plain minimax."""
from __future__ import annotations

import random

import pytest

from engine.play.solver import DistanceSolver, Readout, exact_readout
from games import get_game


def plain_distance(state) -> tuple[int, int]:
    """(result, plies) for the player to move by minimax over every line: the winner takes the
    fewest plies, the loser the most; (0, 0) a draw."""
    if state.is_terminal():
        return int(state.terminal_value()), 0
    best = None
    for a in state.legal_actions():
        child = state.apply(a)
        r, d = plain_distance(child)
        r = r if child.current_player == state.current_player else -r
        d = d + 1 if r else 0
        rank = (r, -d if r > 0 else d)
        if best is None or rank > best[0]:
            best = (rank, (r, d))
    return best[1]


def plain_margin(state) -> int:
    """Othello's final disc margin for the player to move, by minimax over every line."""
    if state.is_terminal():
        discs = state.discs()
        return discs[state.current_player] - discs[1 - state.current_player]
    values = []
    for a in state.legal_actions():
        child = state.apply(a)
        v = plain_margin(child)
        values.append(v if child.current_player == state.current_player else -v)
    return max(values)


def random_positions(game, empties: int, count: int, seed: int, left):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        while left(s) > empties and not s.is_terminal():
            s = s.apply(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            out.append(s)
    return out


def test_connect4_distances_match_a_plain_minimax():
    game = get_game("connect4")
    seen = {1: 0, -1: 0, 0: 0}
    for s in random_positions(game, 7, 60, 11, lambda s: 42 - len(s.moves)):
        want = plain_distance(s)
        assert s.proven_distance() == want, s.to_text()
        seen[want[0]] += 1
    assert seen[1] and seen[-1] and seen[0]          # wins, losses and draws were all checked


def test_connect4_distance_beyond_the_solver_only_from_its_shortcuts():
    game = get_game("connect4")
    s = game.state_from_text("112233")                # red wins at once on 4
    assert s.proven_distance() == (1, 1)
    s = game.state_from_text("22334")                 # two threats, at 1 and 5: yellow loses on red's next
    assert s.proven_distance() == (-1, 2)
    s = game.state_from_text("2233")                  # red makes those two threats with its 4, wins with its second
    assert s.proven_distance() is None                # 38 empty cells: beyond the solver and its shortcuts


def test_the_distance_solve_gives_up_past_its_budget_and_beyond_its_empty_cells():
    game = get_game("connect4")
    hard = next(s for s in random_positions(game, 14, 20, 3, lambda s: 42 - len(s.moves))
                if (s.proven_distance() or (0, 0))[1] >= 5)
    assert hard.proven_distance(budget=0) is None
    assert game.state_from_text("44").proven_distance() is None    # 40 empty cells: not solved


@pytest.mark.parametrize("game_id", ["tictactoe", "connect2"])
def test_small_games_distances_match_a_plain_minimax(game_id):
    game = get_game(game_id)
    solver = DistanceSolver()
    states = [game.initial_state()] + random_positions(game, 6, 40, 5, lambda s: len(s.legal_actions()))
    for s in states:
        assert solver.outcome(s) == plain_distance(s), s.to_text()


def test_othello_margins_match_a_plain_minimax_also_for_each_move():
    game = get_game("othello")
    for s in random_positions(game, 6, 12, 7, lambda s: 64 - sum(s.discs())):
        r = exact_readout(s)
        assert r.margin == plain_margin(s), s.to_text()
        for a, m in r.moves.items():
            child = s.apply(a)
            v = plain_margin(child)
            assert m == (v if child.current_player == s.current_player else -v)
        assert max(r.moves.values()) == r.margin


def test_readouts_say_nothing_where_no_solver_reaches():
    assert exact_readout(get_game("othello").initial_state()) is None
    assert exact_readout(get_game("gomoku").initial_state()) is None
    beyond = get_game("connect4").state_from_text("12345671")   # past the book, short of the solver
    assert exact_readout(beyond) is None


def test_connect_four_reads_its_opening_from_the_book_without_a_distance():
    """The empty board is a first player's win (Connect Four is solved so): the book knows the result
    of every move after it, so the readout has it, with no distance, and each first move's: only
    the centre wins, its neighbours draw, the rest lose (Allis, 1988); an edge first move loses it."""
    from gui.scenes.sidepanel import proven_caption
    game = get_game("connect4")
    empty = exact_readout(game.initial_state())
    assert (empty.result, empty.plies) == (1, None)
    assert empty.results == {0: -1, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -1}
    assert exact_readout(game.state_from_text("4")).result == -1
    assert exact_readout(game.state_from_text("1")).result == 1   # the second player now wins
    assert exact_readout(game.state_from_text("3")).result == 0
    after = exact_readout(game.state_from_text("12345"))           # past the book's five plies:
    assert after is None or not after.results                     # no move's result from it
    assert proven_caption(None, ["Red", "Yellow"], Readout(1, None), mover=0) == "Red wins with best play (proven)"


def test_the_issue_position_is_a_draw_and_a3_loses_in_two_of_os_moves():
    game = get_game("tictactoe")
    s = game.initial_state()
    for m in ("b2", "a1", "a2", "c2"):
        s = s.apply(s.parse_action(m))
    assert exact_readout(s) == Readout(0, None)
    lost = exact_readout(s.apply(s.parse_action("a3")))
    assert lost.result == 1 and lost.winner_moves() == 2     # O to move wins with its second move
