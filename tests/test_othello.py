"""Othello rules (flips, passes, the end), notation, encoding, symmetries and perft."""
from __future__ import annotations

import random

import numpy as np
import pytest

from games import NotationError, game_from_key, get_game
from games.othello import OthelloState
from games.perft import perft

# a random game in which White had to pass once (found by seeded random play)
GAME_WITH_PASS = ("e6f4e3d2d3e7f2c5d6g1b4c2f5g4d1a3b5b6g5f6c4f3e8h6h4d7b1h5f7f8c7b7g2c3b3b2g8c1h3e1"
                  "d8a1a4g3a2c6a6a5f1a7c8h1b8h2e2g6g7a8passh8h7")


@pytest.fixture(scope="module")
def game():
    return get_game("othello")


def position(game, diagram: str, player: int = 0) -> OthelloState:
    """A state from a diagram: one word per row from the top, X black, O white, '.' empty."""
    black = white = 0
    for r, row in enumerate(diagram.split()):
        for c, ch in enumerate(row):
            if ch == "X":
                black |= 1 << (r * game.size + c)
            elif ch == "O":
                white |= 1 << (r * game.size + c)
    me, opp = (black, white) if player == 0 else (white, black)
    return OthelloState(game, me, opp, player)


def reference_moves(board: np.ndarray, player: int) -> dict[int, list[int]]:
    """Legal moves and their flips by walking the board square by square (a slow second opinion)."""
    n = board.shape[0]
    me = 1 if player == 0 else -1
    moves = {}
    for r in range(n):
        for c in range(n):
            if board[r, c]:
                continue
            flipped = []
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    run, rr, cc = [], r + dr, c + dc
                    while (dr or dc) and 0 <= rr < n and 0 <= cc < n and board[rr, cc] == -me:
                        run.append(rr * n + cc)
                        rr, cc = rr + dr, cc + dc
                    if run and 0 <= rr < n and 0 <= cc < n and board[rr, cc] == me:
                        flipped += run
            if flipped:
                moves[r * n + c] = flipped
    return moves


def test_standard_start_with_black_to_move(game):
    s = game.initial_state()
    board = s.board_array()
    assert board[3, 3] == board[4, 4] == -1  # d4, e5 white
    assert board[4, 3] == board[3, 4] == 1  # d5, e4 black
    assert s.current_player == 0 and s.discs() == (2, 2)
    assert [s.action_to_text(a) for a in s.legal_actions()] == ["d3", "c4", "f5", "e6"]


def test_a_move_flips_lines_in_all_eight_directions(game):
    s = position(game, """
        X..X..X.
        .O.O.O..
        ..OOO...
        XOO.OOOX
        ..OOO...
        .O.O.O..
        X..X..X.
        ........""")
    after = s.apply(s.parse_action("d4"))
    assert after.discs() == (8 + 17 + 1, 0)
    assert after.is_terminal() and after.winner() == 0  # white has no disc left


def test_flips_stop_at_the_first_own_disc_and_never_cross_an_empty_square(game):
    s = position(game, """
        .OOXOOX.
        O.......
        ........
        X.......
        ........
        ........
        ........
        ........""")
    board = s.apply(s.parse_action("a1")).board_array()
    assert board[0].tolist() == [1, 1, 1, 1, -1, -1, 1, 0]
    assert board[1, 0] == -1


def test_a_player_without_a_move_must_pass(game):
    s = position(game, """
        OOX.....
        ........
        ........
        ........
        ........
        ........
        ........
        ........""")
    assert s.legal_actions() == [game.pass_action] and not s.is_terminal()
    assert s.parse_action("pass") == game.pass_action and s.action_to_text(game.pass_action) == "pass"
    with pytest.raises(NotationError, match="must pass"):
        s.parse_action("d1")
    after = s.apply(game.pass_action)
    assert after.current_player == 1 and after.legal_actions() == [3]  # white d1


def test_pass_is_illegal_while_a_move_exists(game):
    with pytest.raises(NotationError, match=r"pass is illegal.*d3"):
        game.initial_state().parse_action("pass")


def test_the_game_ends_when_neither_player_can_move(game):
    s = position(game, "X....... " + "........ " * 6 + ".......O")
    assert s.is_terminal() and s.legal_actions() == []
    assert s.winner() is None and s.returns() == (0.0, 0.0)
    s = position(game, "XX...... " + "........ " * 6 + ".......O", player=1)
    assert s.is_terminal() and s.winner() == 0 and s.terminal_value() == -1.0


def test_a_full_board_ends_the_game_and_most_discs_wins(game):
    s = position(game, "XXXXXXXX " * 4 + "OOOOOOOO " * 4)
    assert s.is_terminal() and s.winner() is None
    s = position(game, "XXXXXXXX " * 3 + "OOOOOOOO " * 5)
    assert s.is_terminal() and s.winner() == 1


def test_a_transcript_with_a_pass_replays_and_round_trips(game):
    s = game.state_from_text(GAME_WITH_PASS)
    assert game.pass_action in s.moves
    assert s.is_terminal() and s.discs() == (16, 48) and s.winner() == 1
    assert s.to_text() == GAME_WITH_PASS
    spaced = " ".join(s.action_to_text(a) for a in s.moves)
    assert game.state_from_text(spaced) == s


def test_transcripts_read_with_or_without_spaces_in_any_case(game):
    s = game.state_from_text("f5d6c3d3c4")
    assert s.to_text() == "f5d6c3d3c4"
    assert game.state_from_text("F5 d6, C3 d3 c4") == s


def test_bad_squares_are_rejected_with_the_reason(game):
    s = game.initial_state()
    with pytest.raises(NotationError, match="bad square"):
        s.parse_action("5f")
    with pytest.raises(NotationError, match="off the 8x8 board"):
        s.parse_action("i1")
    with pytest.raises(NotationError, match="off the 8x8 board"):
        s.parse_action("a9")
    with pytest.raises(NotationError, match="d4 is occupied"):
        s.parse_action("d4")
    with pytest.raises(NotationError, match="flips no disc"):
        s.parse_action("a1")
    over = position(game, "X....... " + "........ " * 7)
    with pytest.raises(NotationError, match="already over"):
        over.parse_action("b1")
    with pytest.raises(NotationError, match="already over"):
        over.parse_action("pass")


def test_bad_transcripts_name_the_move(game):
    with pytest.raises(NotationError, match=r"move 3 \('a1'\).*flips no disc"):
        game.state_from_text("f5d6a1")
    with pytest.raises(NotationError, match=r"move 2 \('%'\)"):
        game.state_from_text("f5%d6")
    with pytest.raises(NotationError, match=r"move 2 \('pass'\)"):
        game.state_from_text("f5 pass")


def test_moves_and_flips_agree_with_a_square_by_square_reference(game):
    rng = random.Random(5)
    for size in (4, 6, 8):
        g = get_game("othello", size=size)
        for _ in range(4):
            s = g.initial_state()
            while not s.is_terminal():
                board = s.board_array()
                expected = reference_moves(board, s.current_player)
                legal = s.legal_actions()
                assert legal == (sorted(expected) or [g.pass_action])
                a = rng.choice(legal)
                after = s.apply(a).board_array().reshape(-1)
                if a != g.pass_action:
                    flat = board.reshape(-1).copy()
                    flat[expected[a] + [a]] = 1 if s.current_player == 0 else -1
                    assert after.tolist() == flat.tolist()
                s = s.apply(a)
            assert not reference_moves(s.board_array(), 0) and not reference_moves(s.board_array(), 1)


def test_six_by_six_variant(game):
    g = get_game("othello", size=6)
    assert g.key == "othello-6" and game.key == "othello" and game_from_key("othello-6") is g
    assert g.action_size == 37 and g.board_shape == (6, 6)
    s = g.initial_state()
    assert [s.action_to_text(a) for a in s.legal_actions()] == ["c2", "b3", "e4", "d5"]
    assert s.encode().shape == (3, 6, 6)
    with pytest.raises(NotationError, match="off the 6x6 board"):
        s.parse_action("g1")
    with pytest.raises(ValueError, match="othello size"):
        get_game("othello", size=7)


def test_encode_gives_own_discs_opponent_discs_and_legal_moves(game):
    s = game.state_from_text("f5")  # white to move
    planes = s.encode()
    assert planes.shape == (3, 8, 8) and planes.dtype == np.float32
    assert planes[0].sum() == 1 and planes[0, 3, 3] == 1  # white kept only d4
    assert planes[1].sum() == 4
    legal = {int(i) for i in np.flatnonzero(planes[2])}
    assert legal == set(s.legal_actions())


def test_render_shows_coordinates(game):
    lines = game.initial_state().render().splitlines()
    assert lines[0] == "  a b c d e f g h"
    assert lines[4] == "4 . . . O X . . ."


def test_symmetries_map_planes_and_legal_moves_consistently(game):
    rng = random.Random(3)
    syms = game.symmetries()
    assert len(syms) == 8
    for plies in (0, 5, 17, 40):
        s = game.initial_state()
        for _ in range(plies):
            s = s.apply(rng.choice(s.legal_actions()))
        mask = np.zeros(game.action_size, dtype=np.float32)
        mask[s.legal_actions()] = 1
        for (cells, actions), (planes, policy) in zip(syms, game.augment(s.encode(), mask)):
            board = s.board_array().reshape(-1)[cells].reshape(8, 8)
            t = position(game, " ".join("".join(".XO"[v] for v in row) for row in board), s.current_player)
            assert np.array_equal(t.encode(), planes)
            t_mask = np.zeros(game.action_size, dtype=np.float32)
            t_mask[t.legal_actions()] = 1
            assert np.array_equal(t_mask, policy)
            assert actions[-1] == game.pass_action  # the pass stays the pass


def test_perft_matches_the_published_counts(game):
    expected = [4, 12, 56, 244, 1396, 8200, 55092]
    assert perft(game.initial_state(), 7) == expected
    assert perft(game.initial_state(), 5, use_fast=False) == expected[:5]


def reference_perft(board: np.ndarray, player: int, depth: int) -> list[int]:
    """Perft by `reference_moves` on plain arrays: a pass is a ply, a finished game has no children."""
    nodes = [0] * depth

    def walk(b: np.ndarray, p: int, ply: int) -> None:
        if ply == depth:
            return
        moves = reference_moves(b, p)
        if not moves:
            if reference_moves(b, 1 - p):  # a pass
                nodes[ply] += 1
                walk(b, 1 - p, ply + 1)
            return
        nodes[ply] += len(moves)
        for square, flipped in moves.items():
            child = b.reshape(-1).copy()
            child[flipped + [square]] = 1 if p == 0 else -1
            walk(child.reshape(b.shape), 1 - p, ply + 1)

    walk(board, player, 0)
    return nodes


def test_six_by_six_perft_agrees_with_the_square_by_square_reference():
    # no published 6x6 counts exist (the 8x8 ones are checked above), so the bitboard walker and
    # the public API are checked against an independent array walker, from the start and from a
    # random midgame (where passes and finished games occur)
    g = get_game("othello", size=6)
    start = g.initial_state()
    expected = reference_perft(start.board_array(), 0, 6)
    assert expected[:3] == [4, 12, 56]  # the centre start matches 8x8's first plies
    assert perft(start, 6) == expected
    assert perft(start, 4, use_fast=False) == expected[:4]
    rng = random.Random(11)
    s = start
    while len(s.moves) < 22:
        s = s.apply(rng.choice(s.legal_actions()))
    assert perft(s, 5) == reference_perft(s.board_array(), s.current_player, 5)


def test_perft_counts_passes_as_plies(game):
    s = game.state_from_text(GAME_WITH_PASS[:-8])  # just before white's pass
    assert perft(s, 3) == perft(s, 3, use_fast=False)
    assert perft(s, 1) == [1]


def test_fast_random_playout_plays_the_same_games_as_the_generic_one():
    from conftest import generic_playout
    from engine.core.evaluators import RolloutEvaluator

    passes = 0
    for game in (get_game("othello"), get_game("othello", size=6)):
        rng = random.Random(5)
        starts = [game.initial_state()]
        for _ in range(6):   # positions along random games
            s = game.initial_state()
            while not s.is_terminal():
                s = s.apply(rng.choice(s.legal_actions()))
                starts.append(s)
        passes += sum(s.legal_actions() == [game.pass_action] for s in starts)
        for seed, start in enumerate(starts[::5]):
            for plies in (200, 7):
                fast = RolloutEvaluator(max_plies=plies, seed=seed).playout(start)
                generic = generic_playout(RolloutEvaluator(max_plies=plies, seed=seed), start)
                assert fast == generic, (game.key, seed, plies)
    assert passes, "the sample should include positions where the only move is a pass"



def test_proven_value_finds_every_wipe_out_and_board_filling_win_and_nothing_else(monkeypatch):
    """The search's shortcut: 1.0 exactly when one move ends the game won by taking every
    opposing disc or by filling the board with a majority; checked against applying every
    move, along random games on both board sizes (games are steered towards wipe-outs by
    playing the move that flips most about half the time). The endgame solver is off here:
    it would prove more."""
    import games.othello as othello_module
    monkeypatch.setattr(othello_module, "SOLVE_EMPTIES", 0)
    found = 0
    for game in (get_game("othello"), get_game("othello", size=6)):
        rng = random.Random(7)
        for _ in range(150):
            s = game.initial_state()
            while not s.is_terminal():
                wins = []
                for a in s.legal_actions():
                    c = s.apply(a)
                    if c.is_terminal() and c.winner() == s.current_player:
                        black, white = c.discs()
                        if min(black, white) == 0 or black + white == game.cells:
                            wins.append(a)
                assert (s.proven_value() == 1.0) == bool(wins), s.to_text()
                found += bool(wins)
                legal = s.legal_actions()
                if rng.random() < 0.5:
                    s = s.apply(rng.choice(legal))
                else:
                    s = s.apply(max(legal, key=lambda a: s.apply(a).discs()[s.current_player]))
    assert found > 50, found
    # a wipe-out in the opening (the shipped model lost a match game to it, as black, playing c6)
    game = get_game("othello")
    s = game.state_from_text("e6f4e3f6f5d6f3f2c6")
    assert s.proven_value() == 1.0
    end = s.apply(s.parse_action("b7"))
    assert end.is_terminal() and end.discs()[0] == 0


def test_the_rules_say_why_a_game_ended():
    import random
    from games import get_game
    g = get_game("othello", size=6)
    seen = set()
    for seed in range(300):
        rng = random.Random(seed)
        s = g.initial_state()
        while not s.is_terminal():
            assert s.end_reason() is None
            s = s.apply(rng.choice(s.legal_actions()))
        full = bool((s.board_array() != 0).all())
        assert s.end_reason() == ("full board" if full else "no moves")
        seen.add(s.end_reason())
    assert seen == {"full board", "no moves"}


def _minimax(s) -> int:
    """The result for the side to move by trying every line to the end: 1, 0 or -1."""
    if s.is_terminal():
        w = s.winner()
        return 0 if w is None else (1 if w == s.current_player else -1)
    return max(-_minimax(s.apply(a)) for a in s.legal_actions())


def _random_endgame(game, empties: int, rng):
    while True:
        s = game.initial_state()
        while not s.is_terminal() and (s.board_array() == 0).sum() > empties:
            s = s.apply(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            return s


def test_the_endgame_solver_agrees_with_trying_every_line():
    """`solve` against plain minimax on random endgames of both board sizes with 1-7 empty
    squares (passes, games ending with squares left and draws among them), from a cleared
    table and from one filled by the other positions' solves."""
    import games.othello as othello_module
    rng = random.Random(11)
    results = set()
    passes = 0
    for game in (get_game("othello"), get_game("othello", size=6)):
        for empties in range(1, 8):
            for i in range(25):
                s = _random_endgame(game, empties, rng)
                if i % 2:
                    othello_module._SOLVED.clear()
                expected = _minimax(s)
                assert othello_module.solve(game, s._me, s._opp) == expected, s.to_text()
                results.add(expected)
                passes += s.legal_actions() == [game.pass_action]
    assert results == {-1, 0, 1} and passes


def test_proven_value_is_the_solvers_result_near_the_end(monkeypatch):
    import games.othello as othello_module
    monkeypatch.setattr(othello_module, "SOLVE_EMPTIES", 6)
    game = get_game("othello")
    rng = random.Random(3)
    for _ in range(20):
        s = _random_endgame(game, 6, rng)
        assert s.proven_value() == float(_minimax(s))
        far = _random_endgame(game, 12, rng)
        assert far.proven_value() in (None, 1.0)   # beyond the solver only the shortcut
    assert "exact results with 6 or fewer empty squares" in game.proofs
    monkeypatch.setattr(othello_module, "SOLVE_EMPTIES", 0)
    assert "exact" not in game.proofs
