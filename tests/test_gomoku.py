"""Gomoku (free-style) rules, notation, board sizes and encoding."""
from __future__ import annotations

import numpy as np
import pytest

from games import NotationError, game_from_key, get_game
from games.perft import perft


@pytest.fixture(scope="module")
def game():
    return get_game("gomoku")


def test_points_are_named_with_rows_counted_from_the_bottom(game):
    s = game.initial_state()
    assert game.key == "gomoku" and game.board_shape == (15, 15) and game.action_size == 225
    assert s.parse_action("h8") == 7 * 15 + 7  # the centre
    assert s.parse_action("a1") == 14 * 15  # bottom-left: the last row of the planes
    assert s.parse_action("o15") == 14  # top-right
    assert s.parse_action("i8") == 7 * 15 + 8  # 'i' is a column
    assert [s.action_to_text(a) for a in (0, 14, 112, 210, 224)] == ["a15", "o15", "h8", "a1", "o1"]


@pytest.mark.parametrize("moves, line", [
    ("h8 a1 i8 a2 j8 a3 k8 a4 l8", "horizontal"),
    ("h4 a15 h5 b15 h6 c15 h7 d15 h8", "vertical"),
    ("d4 a15 e5 b15 f6 c15 g7 d15 h8", "rising diagonal"),
    ("d12 a1 e11 b1 f10 c1 g9 d1 h8", "falling diagonal"),
    ("k1 a15 l1 c15 m1 e15 n1 g15 o1", "along the edge"),
])
def test_five_in_a_row_wins(game, moves, line):
    s = game.state_from_text(moves)
    assert s.winner() == 0, line
    assert s.is_terminal() and s.legal_actions() == []


def test_five_in_a_row_wins_for_white(game):
    s = game.state_from_text("a1 h8 a3 i8 a5 j8 a7 k8 a9 l8")
    assert s.winner() == 1 and s.returns() == (-1.0, 1.0)


def test_an_overline_of_six_also_wins(game):
    s = game.state_from_text("a1 a15 b1 c15 c1 e15 d1 g15 f1 i15")
    assert not s.is_terminal()
    assert s.apply(s.parse_action("e1")).winner() == 0


def test_four_is_not_enough(game):
    s = game.state_from_text("h8 a1 i8 a2 j8 a3 k8")
    assert not s.is_terminal() and s.winner() is None


def test_lines_do_not_wrap_from_one_row_to_the_next(game):
    # l2..o2 end one row and a1 starts the next in the action numbering
    assert game.state_from_text("l2 a15 m2 c15 n2 e15 o2 g15 a1").winner() is None


def test_full_board_without_five_is_a_draw():
    g = get_game("gomoku", size=5)
    pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]
    black = [r * 5 + c for r in range(5) for c in range(5) if pattern[r][c] == "X"]
    white = [r * 5 + c for r in range(5) for c in range(5) if pattern[r][c] == "O"]
    order = [a for pair in zip(black, white + [None]) for a in pair if a is not None]
    s = g.state_from_text(" ".join(g.point_name(a) for a in order))
    assert s.is_terminal() and s.winner() is None and s.legal_actions() == []


def test_nine_by_nine_board():
    g = get_game("gomoku", size=9)
    assert g.key == "gomoku-9" and game_from_key("gomoku-9") is g
    s = g.initial_state()
    assert s.parse_action("e5") == 40 and s.action_to_text(72) == "a1" and s.action_to_text(8) == "i9"
    with pytest.raises(NotationError, match="off the 9x9 board"):
        s.parse_action("j1")
    with pytest.raises(NotationError, match="off the 9x9 board"):
        s.parse_action("a10")
    won = g.state_from_text("a1 a9 b2 b9 c3 c9 d4 d9 e5")
    assert won.winner() == 0
    assert perft(s, 2) == [81, 81 * 80]


def test_eight_by_eight_board():
    g = get_game("gomoku", size=8)
    assert g.key == "gomoku-8" and g.action_size == 64
    s = g.state_from_text("h8 a1 g7 b1 f6 c1 e5 d1 d4")
    assert s.winner() == 0
    assert g.initial_state().parse_action("h8") == 7


def test_bad_sizes_are_rejected():
    with pytest.raises(ValueError, match="gomoku size"):
        get_game("gomoku", size=4)


def test_bad_points_are_rejected_with_the_reason(game):
    s = game.state_from_text("h8")
    with pytest.raises(NotationError, match="bad point"):
        s.parse_action("8h")
    with pytest.raises(NotationError, match="off the 15x15 board"):
        s.parse_action("p1")
    with pytest.raises(NotationError, match="off the 15x15 board"):
        s.parse_action("a16")
    with pytest.raises(NotationError, match="already taken"):
        s.parse_action("h8")
    over = game.state_from_text("h8 a1 i8 a2 j8 a3 k8 a4 l8")
    with pytest.raises(NotationError, match="already over"):
        over.parse_action("b1")


def test_bad_position_text_names_the_move(game):
    with pytest.raises(NotationError, match=r"move 3 \('h8'\)"):
        game.state_from_text("h8 h9 h8")


def test_position_text_is_a_space_separated_move_list(game):
    s = game.state_from_text("h8, i9  g7")
    assert s.to_text() == "h8 i9 g7"
    assert game.state_from_text(s.to_text()) == s


def test_encode_planes(game):
    s = game.state_from_text("h8 i9")  # black to move
    planes = s.encode()
    assert planes.shape == (8, 15, 15) and planes.dtype == np.float32
    assert planes[0, 7, 7] == 1 and planes[0].sum() == 1  # own: black's h8
    assert planes[1, 6, 8] == 1 and planes[1].sum() == 1  # opponent: white's i9
    assert planes[2, 6, 8] == 1 and planes[2].sum() == 1  # the last move
    assert planes[3].min() == 1  # black to move
    after = s.apply(0).encode()
    assert after[3].max() == 0 and after[2, 0, 0] == 1 and after[1, 0, 0] == 1
    assert planes[4:].max() == 0  # no threats yet


def test_threat_planes_are_the_points_that_make_five_and_four(game):
    # black (to move): h8 i8 j8 k8 (five at g8 or l8; fours at f8 and m8) and the diagonal
    # c13 d12 e11 (fours at b14, f10, g9; a15 is white's); white: d2 d3 d4 (fours at d1, d5, d6)
    s = game.state_from_text("h8 d2 i8 d3 j8 d4 k8 a15 c13 o1 d12 o15 e11 a1")
    name = game.point_name

    def points(planes, k):
        return {name(i) for i in np.flatnonzero(planes[k].reshape(-1))}
    black_fours, white_fours = {"f8", "m8", "b14", "f10", "g9"}, {"d1", "d5", "d6"}
    planes = s.encode()
    assert points(planes, 4) == {"g8", "l8"} and points(planes, 5) == set()
    assert points(planes, 6) == black_fours and points(planes, 7) == white_fours
    planes = s.apply(s.parse_action("a2")).encode()   # white to move: the planes change sides
    assert points(planes, 4) == set() and points(planes, 5) == {"g8", "l8"}
    assert points(planes, 6) == white_fours and points(planes, 7) == black_fours


def test_board_array_and_render(game):
    g = get_game("gomoku", size=5)
    s = g.state_from_text("a1 e5")
    board = s.board_array()
    assert board[4, 0] == 1 and board[0, 4] == -1 and board.dtype == np.int8
    lines = s.render().splitlines()
    assert lines[0] == "  a b c d e" and lines[1] == "5 . . . . O" and lines[5] == "1 X . . . ."


def _clustered_positions(size: int, games: int, seed: int, rule: str = "freestyle"):
    """Every position of ``games`` random games under ``rule`` played near the last stones, as lines
    form in real games."""
    import random
    game = get_game("gomoku", rule=rule, size=size)
    rng = random.Random(seed)
    for _ in range(games):
        s = game.initial_state()
        while not s.is_terminal():
            yield s
            legal = s.legal_actions()
            near = [a for a in legal if any(abs(a // size - m // size) <= 1 and abs(a % size - m % size) <= 1
                                            for m in s.moves[-6:])] or legal
            s = s.apply(rng.choice(near))


@pytest.mark.parametrize("size", [9, 7])
def test_proven_value_is_win_in_one_lost_in_two_or_a_victory_by_fours(size):
    """In gomoku one stone cannot make the opponent a new five, so "every move lets the
    opponent make five" is exactly "the opponent has two points to make five"; beyond win in
    one, a proven win is a victory by continuous fours (checked move by move below)."""
    from conftest import lost_in_two, win_in_one
    seen = {"one": 0, "vcf": 0, -1.0: 0, None: 0}
    for s in _clustered_positions(size, 12, size):
        v = s.proven_value()
        if win_in_one(s):
            assert v == 1.0, s.to_text()
            seen["one"] += 1
        elif lost_in_two(s):
            assert v == -1.0, s.to_text()
            seen[-1.0] += 1
        else:
            assert v == (1.0 if s.vcf() is not None else None), s.to_text()
            seen["vcf" if v == 1.0 else None] += 1
    assert all(seen.values()), seen


def _assert_forced_win(s, plies_left: int = 40) -> None:
    """``s.vcf()``'s move wins against every defence, checked with the rules alone: each
    defender reply either loses at once (the attacker then has a five to make) or is the
    block, after which the attacker has a victory by fours again."""
    assert plies_left > 0
    attacker = s.current_player
    move = s.vcf()
    assert move is not None, s.to_text()
    t = s.apply(move)
    if t.is_terminal():
        assert t.winner() == attacker
        return
    for reply in t.legal_actions():
        u = t.apply(reply)
        assert not u.is_terminal(), (s.to_text(), "the defender made five or filled the board")
        if any(u.apply(a).winner() == attacker for a in u.legal_actions()):
            continue
        _assert_forced_win(u, plies_left - 2)


def test_every_victory_by_fours_found_is_a_forced_win():
    from conftest import win_in_one
    checked = deeper = 0
    for s in _clustered_positions(9, 40, 5):
        if win_in_one(s) or s.proven_value() != 1.0:
            continue
        _assert_forced_win(s)
        # a single four (the defender is not lost in two): the win takes more than one four
        deeper += s.apply(s.vcf()).proven_value() != -1.0
        checked += 1
        if checked >= 40:
            break
    assert checked >= 10 and deeper >= 3, (checked, deeper)


def _check_segment_points(size: int, count: int, method: str, seed: int) -> None:
    """Bit-sliced ``game.<method>`` against the definition, segment by segment on
    coordinates: the empty points of five-point segments with ``count`` of the mover's stones
    and none of the opponent's."""
    game = get_game("gomoku", size=size)
    n = size
    segments = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= r + 4 * dr < n and 0 <= c + 4 * dc < n:
                    segments.append([(r + k * dr) * n + c + k * dc for k in range(5)])
    found = 0
    for s in _clustered_positions(size, 5, seed):
        board = s.board_array().reshape(-1)
        for me, mine_v in ((0, 1), (1, -1)):
            expect = set()
            for seg in segments:
                vals = [board[i] for i in seg]
                if vals.count(mine_v) == count and vals.count(-mine_v) == 0:
                    expect.update(i for i in seg if board[i] == 0)
            bits = (s._black, s._white)
            got = getattr(game, method)(bits[me], bits[1 - me], game.full ^ (s._black | s._white))
            assert {i for i in range(n * n) if got >> i & 1} == expect, s.to_text()
            found += len(expect)
    assert found > 0


@pytest.mark.parametrize("size", [15, 9])
def test_four_points_are_the_points_that_make_a_four(size):
    _check_segment_points(size, 3, "four_points", 11)


@pytest.mark.parametrize("size", [15, 9])
def test_three_points_are_the_points_that_make_three_in_an_open_segment(size):
    _check_segment_points(size, 2, "three_points", 13)


def test_search_blocks_an_open_four_it_has_never_seen():
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, Tree
    game = get_game("gomoku", size=9)
    # black has four in a row with one open end (c5-f5, g5 open; b5 blocked by white): white must block g5.
    # With uniform priors and values the only information is the proven one: after any other
    # white move black makes five at once.
    s = game.state_from_text("c5 b5 d5 a1 e5 a2 f5")
    assert s.current_player == 1
    tree = Tree(s)
    MCTS(UniformEvaluator()).search([tree], 400)
    best = tree.stats(limit=1)[0]
    assert s.action_to_text(best.action) == "g5"
    assert best.q > -1.0 and all(m.q == -1.0 for m in tree.stats()[1:] if m.visits)


def test_fast_random_playout_plays_the_same_games_as_the_generic_one():
    import random

    from conftest import generic_playout
    from engine.core.evaluators import RolloutEvaluator
    for game in (get_game("gomoku"), get_game("gomoku", size=5)):   # 5x5: full-board draws happen
        rng = random.Random(3)
        starts = []
        for _ in range(8):
            s = game.initial_state()
            while not s.is_terminal():
                starts.append(s)
                s = s.apply(rng.choice(s.legal_actions()))
            starts.append(s)
        results = set()
        for seed, start in enumerate(starts[::4]):
            for plies in (400, 9):
                fast = RolloutEvaluator(max_plies=plies, seed=seed).playout(start)
                assert fast == generic_playout(RolloutEvaluator(max_plies=plies, seed=seed), start), (seed, plies)
                results.add(fast)
        assert results == {-1.0, 0.0, 1.0}


def _vct_positions(count: int, seed: int):
    """9x9 positions after random moves where the mover wins by continuous threats but has
    no victory by fours (open threes are needed)."""
    import random
    game = get_game("gomoku", size=9)
    rng = random.Random(seed)
    found = 0
    while found < count:
        s = game.initial_state()
        for _ in range(rng.randrange(6, 30)):
            if s.is_terminal():
                break
            s = s.apply(rng.choice(s.legal_actions()))
        if s.is_terminal() or s.vcf(depth=30, budget=5000) is not None or s.vct() is None:
            continue
        found += 1
        yield s


def test_every_victory_by_threats_found_wins_against_every_defence():
    """`vct`'s move, then every defender reply, then a random defence to the end, the attacker
    always playing `vct`'s move again: the attacker wins every line (a wrong proof would let
    some reply escape, and the attacker's next search would find nothing)."""
    import random
    rng = random.Random(2)
    lines = threes = 0
    for s in _vct_positions(12, 4):
        attacker = s.current_player
        t = s.apply(s.vct())
        threes += t.proven_value() is None   # a three: the defender is not lost at once
        for reply in t.legal_actions():
            u = t.apply(reply)
            while not u.is_terminal():
                if u.current_player == attacker:
                    move = u.vct(budget=300_000)
                    assert move is not None, (s.to_text(), u.to_text())
                    u = u.apply(move)
                else:
                    u = u.apply(rng.choice(u.legal_actions()))
            assert u.winner() == attacker, (s.to_text(), u.to_text())
            lines += 1
    assert lines > 300 and threes >= 6, (lines, threes)


def test_search_plays_a_victory_by_threats_and_avoids_allowing_one():
    """With uniform priors and values, only the proofs inform the search: at the root it plays
    a winning attack of open threes (a proven win), and as the defender it does not choose a
    move after which the opponent has one, where a move without exists."""
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, Tree
    played = avoided = 0
    for s in _vct_positions(6, 9):
        tree = Tree(s)
        MCTS(UniformEvaluator()).search([tree], 50)
        assert tree.root_result() == 1.0, s.to_text()
        assert s.apply(tree.stats(limit=1)[0].action).vct() is None   # the defender has no attack of its own
        played += 1
    import random
    rng = random.Random(5)
    game = get_game("gomoku", size=9)
    while avoided < 4:
        s = game.initial_state()
        for _ in range(rng.randrange(6, 24)):
            s = s.apply(rng.choice(s.legal_actions()))
            if s.is_terminal():
                break
        if s.is_terminal() or s.proven_value() is not None or s.vct() is not None:
            continue
        losing = [a for a in s.legal_actions() if s.apply(a).vct() is not None or s.apply(a).proven_value() == 1.0]
        if not losing or len(losing) == len(s.legal_actions()):
            continue
        tree = Tree(s)
        MCTS(UniformEvaluator()).search([tree], 300)
        best = tree.stats(limit=1)[0].action
        assert best not in losing, (s.to_text(), s.action_to_text(best))
        avoided += 1
    assert played == 6


def test_a_lost_defender_still_blocks_the_five():
    """When every move loses, the search holds out longest: it blocks the opponent's five even
    where the opponent then wins by fours, instead of a move the network likes that allows
    five at once (`proven_plies`: five now 1 ply, fours at least 3)."""
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, Tree
    checked = 0
    for s in _clustered_positions(9, 60, 21):
        if s.is_terminal() or s.proven_value() is not None:
            continue
        me = s.current_player
        empty = s.game.full ^ (s._black | s._white)
        block = s._wins[1 - me] & empty
        if block.bit_count() != 1:
            continue
        after = s.apply(block.bit_length() - 1)
        if after.is_terminal() or after.proven_value() != 1.0:
            continue   # the block does not lose by force: not the case tested
        tree = Tree(s)
        MCTS(UniformEvaluator()).search([tree], 200)
        assert tree.root_result() == -1.0
        assert tree.stats(limit=1)[0].action == block.bit_length() - 1, s.to_text()
        checked += 1
        if checked >= 5:
            break
    assert checked >= 3, checked


@pytest.fixture
def defence_on(monkeypatch):
    """The threat-space defence is off by default (it did not measure stronger); these tests
    switch it on as ZEROBOARD_GOMOKU_DEFENCE_BUDGET=5000 would."""
    import games.gomoku as gm
    monkeypatch.setattr(gm, "DEFENCE_BUDGET", 5000)


def _open_three():
    """Black to move; white has an open three on row 8 (h8 i8 j8, f8 to l8 empty) and black
    nothing: only g8 and k8 stop an open four (blocking at f8 or l8 leaves one)."""
    game = get_game("gomoku")
    return game.state_from_text("a1 h8 a3 i8 o15 j8")


def test_threat_defence_keeps_the_moves_that_stop_the_attack_and_proves_the_others_lost(defence_on):
    s = _open_three()
    defences, refuted = s.threat_defence()
    assert sorted(s.action_to_text(a) for a in defences) == ["g8", "k8"]
    names = {s.action_to_text(a) for a in refuted}
    assert {"f8", "l8", "a2"} <= names        # a far block, and black's own quiet extension
    for a in refuted:                           # each refutation is a proof
        assert s.apply(a).vct(threes=4, budget=5000) is not None
    quiet = get_game("gomoku").state_from_text("h8 a1")
    assert quiet.threat_defence() is None       # nothing to answer


def test_threat_defence_is_off_by_default_and_where_the_threat_proofs_are(monkeypatch):
    import games.gomoku as gm
    import os
    if "ZEROBOARD_GOMOKU_DEFENCE_BUDGET" not in os.environ:
        assert gm.DEFENCE_BUDGET == 0 and _open_three().threat_defence() is None
    monkeypatch.setattr(gm, "DEFENCE_BUDGET", 5000)
    assert _open_three().threat_defence() is not None
    monkeypatch.setattr(gm, "VCT_BUDGET", 0)
    assert _open_three().threat_defence() is None


def test_search_answers_an_open_three_even_with_uniform_priors(defence_on):
    """With uniform priors and values nothing but the threat-space defence tells the search
    that 223 of the 225 points lose: the root gives them no prior and plays a block."""
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, SearchConfig, Tree, reuse_tree
    s = _open_three()
    tree = Tree(s)
    MCTS(UniformEvaluator()).search([tree], 60)
    a, _, _, p, _ = tree.edges(0)
    kept = {s.action_to_text(int(x)) for x, q in zip(a, p) if q > 0}
    assert kept == {"g8", "k8"} and abs(float(p.sum()) - 1.0) < 1e-2
    assert s.action_to_text(tree.stats(limit=1)[0].action) in ("g8", "k8")
    # a root taken over from the search one ply before: a child it visited there that the
    # defence proves lost is recorded as lost, and the priors are restricted the same way
    before = get_game("gomoku").state_from_text("a1 h8 a3 i8 o15")
    old = Tree(before)
    MCTS(UniformEvaluator()).search([old], 3000)
    reused = reuse_tree(old, s)
    assert reused is not old and reused.root_expanded
    _, refuted = s.threat_defence()
    a, n, _, _, kids = reused.edges(0)
    visited_lost = [k for x, k in zip(a, kids) if int(x) in refuted and k >= 0]
    assert visited_lost, "the earlier search visited none of the refuted moves: the test proves nothing"
    MCTS(UniformEvaluator()).search([reused], int(reused.root_n) + 100)   # restricts the root first
    a, n, _, p, kids = reused.edges(0)
    assert {s.action_to_text(int(x)) for x, q in zip(a, p) if q > 0} == {"g8", "k8"}
    assert all(reused._known_values(np.array([k]))[0] == -1.0 for k in visited_lost)
    assert s.action_to_text(reused.stats(limit=1)[0].action) in ("g8", "k8")
    # without the game's tactical hooks (self-play's default) the root is left alone
    plain = Tree(s)
    MCTS(UniformEvaluator(), SearchConfig(tactics=False)).search([plain], 60)
    assert (plain.edges(0)[3] > 0).sum() == len(s.legal_actions())


def test_self_play_without_the_slower_proofs_searches_as_a_zero_threat_budget(monkeypatch):
    """``SearchConfig.proofs`` off (``[selfplay] proofs = false``): the search never asks for a
    victory by continuous threats, so a root whose only proof is one is left to the search,
    and self-play's games are move for move those of ``ZEROBOARD_GOMOKU_VCT_BUDGET=0``."""
    import games.gomoku as gm
    from engine.core.config import SelfPlaySettings
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, SearchConfig, Tree
    from engine.core.selfplay import play_games
    s = get_game("gomoku").state_from_text("g9 k7 k9 h6 g8 e11 g7 g5 h8 g11 h7 k5")
    assert s.proven_value() is None and s.vct(budget=600) is not None   # only the slow proof sees it
    calls = []
    real = gm.GomokuState._vct_for   # under the proof and the threat defence alike
    monkeypatch.setattr(gm.GomokuState, "_vct_for", lambda self, *a, **k: calls.append(1) or real(self, *a, **k))
    monkeypatch.setattr(gm, "DEFENCE_BUDGET", 5000)
    for proofs in (True, False):
        calls.clear()
        tree = Tree(s)
        MCTS(UniformEvaluator(), SearchConfig(proofs=proofs)).search([tree], 20)
        assert (tree.root_win >= 0) == proofs and bool(calls) == proofs
    settings = dict(sims=12, fast_sims=4, full_search_prob=0.5, games_per_generation=2, parallel_games=2,
                    leaf_batch=2, temperature_moves=4, max_plies=40)
    calls.clear()
    off = play_games(get_game("gomoku"), UniformEvaluator(), SelfPlaySettings(proofs=False, **settings), 2, seed=5)
    assert not calls
    monkeypatch.setattr(gm, "VCT_BUDGET", 0)
    zero = play_games(get_game("gomoku"), UniformEvaluator(), SelfPlaySettings(**settings), 2, seed=5)
    assert [r.moves for r in off[0]] == [r.moves for r in zero[0]] and off[0][0].moves


#: a position of generation 881's games against Rapfi (docs/runs/gomoku-effort-2026-12-02/): black,
#: to move, wins by continuous threats four threes deep, which three threes and 600 moves miss
_DEEP_VCT = "i6 j12 i8 i11 h7 j9 i7 i9 j7 g7"


def test_a_higher_proof_effort_finds_a_deeper_victory_by_threats(game):
    """`vct_settings`: each effort looks one three deeper with 8 times the moves, and the search's
    hooks take it: effort 1 proves nothing in this position, effort 2 proves the win and names
    a move that wins it (the attacker then wins against every reply, as `vct` proves)."""
    import games.gomoku as gomoku
    s = game.initial_state()
    for text in _DEEP_VCT.split():
        s = s.apply(s.parse_action(text))
    assert gomoku.vct_settings(1) == (3, gomoku.VCT_BUDGET)
    assert gomoku.vct_settings(2) == (4, 8 * gomoku.VCT_BUDGET)
    assert gomoku.vct_settings(9) == gomoku.vct_settings(3) and gomoku.vct_settings(0) == gomoku.vct_settings(1)
    assert s.deep_proven_value() is None and s.winning_action() is None
    assert s.deep_proven_value(2) == 1.0
    move = s.winning_action(2)
    assert move in s.legal_actions()
    after = s.apply(move)
    assert after.vct(*gomoku.vct_settings(3)) is None   # the defender has no attack of its own ...
    for reply in after.legal_actions()[:40]:   # ... and the attacker still wins after each reply
        t = after.apply(reply)
        assert t.is_terminal() or t.proven_value() == 1.0 or t.vct(*gomoku.vct_settings(3)) is not None, \
            (t.to_text(), t.action_to_text(reply))


def test_the_search_passes_its_proof_effort_to_the_proofs(game):
    """`SearchConfig.proof_effort` reaches the game's slower proofs at the root and below it:
    at effort 2 the search proves the deep victory above and plays it; at effort 1 it does not
    know the root won."""
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, SearchConfig, Tree
    s = game.initial_state()
    for text in _DEEP_VCT.split():
        s = s.apply(s.parse_action(text))
    plain, deep = Tree(s), Tree(s)
    MCTS(UniformEvaluator()).search([plain], 30)
    MCTS(UniformEvaluator(), SearchConfig(proof_effort=2)).search([deep], 30)
    assert plain.root_result() is None
    assert deep.root_result() == 1.0
    assert deep.stats(limit=1)[0].action == s.winning_action(2)
