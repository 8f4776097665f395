"""Weak levels err by seeing less, not by blunders they could see at once: the glancing levels
(`engine.play.players.glance_choice`) look at a few moves, but take every win at once and set
aside moves that lose at once or put material within the opponent's captures; a sampling search
samples only among the moves it rates near its best (`Level.tolerance`)."""
from __future__ import annotations

import numpy as np
import pytest

from engine.core.evaluators import UniformEvaluator
from engine.play.players import (HANGING_MATERIAL, LEVEL_SETTINGS, MCTSPlayer, glance_choice, make_player,
                                 play_search_config, wins_at_once, wins_by_trying)
from games import get_game


def _after(game_id, moves):
    game = get_game(game_id)
    s = game.initial_state()
    for a in moves:
        s = s.apply(a)
    return game, s


def _choices(game, state, level, seeds=40, tolerance="level"):
    p = make_player(game, level, seed=0)
    if tolerance is None:
        p.tolerance = None
    out = []
    for seed in range(seeds):
        p.rng = np.random.default_rng(seed)
        p.reset()
        out.append(p.choose(state).action)
    return out


@pytest.mark.parametrize("level", ["beginner", "easy"])
def test_a_weak_level_blocks_a_win_at_once(level):
    """Tic-tac-toe: O threatens b3 (1, 4, 7); X must take 7."""
    game, state = _after("tictactoe", [0, 4, 8, 1])
    assert set(_choices(game, state, level)) == {7}


@pytest.mark.parametrize("level", ["beginner", "easy"])
def test_a_weak_level_takes_a_win_at_once(level):
    game, state = _after("connect4", [3, 3, 2, 2, 4, 0])
    assert set(_choices(game, state, level)) <= {1, 5}


def test_the_beginner_glances_at_one_move_and_easy_at_more():
    assert LEVEL_SETTINGS["beginner"].glance == 1 and LEVEL_SETTINGS["beginner"].glance_prior == 0.0
    assert LEVEL_SETTINGS["easy"].glance > LEVEL_SETTINGS["beginner"].glance
    assert all(LEVEL_SETTINGS[lv].glance is None for lv in ("medium", "hard", "strong", "max"))


def test_a_weak_level_still_varies_its_moves():
    game = get_game("tictactoe")
    assert len(set(_choices(game, game.initial_state(), "beginner", seeds=30))) >= 3


def test_a_glancing_level_keeps_no_tree_and_reports_what_it_saw():
    game = get_game("connect4")
    p = make_player(game, "easy", seed=3)
    result = p.choose(game.initial_state())
    assert p.tree is None
    assert result.action in game.initial_state().legal_actions()
    assert 1 <= len(result.top) <= LEVEL_SETTINGS["easy"].glance and result.top[0].action == result.action


def test_without_the_tolerance_a_sampling_search_throws_moves_away():
    """The rule `Level.tolerance` answers (a search at 12 visits sampling in proportion to them):
    without it, the block of tic-tac-toe's b3 threat is missed in some seeds."""
    game, state = _after("tictactoe", [0, 4, 8, 1])
    from engine.play.players import load_evaluator
    evaluator, _ = load_evaluator(game)
    chosen = {}
    for tolerance in (0.3, None):
        picks = set()
        for seed in range(40):
            p = MCTSPlayer(game, evaluator, sims=12, temperature=1.0, tolerance=tolerance, seed=seed,
                           config=play_search_config(game))
            picks.add(p.choose(state).action)
        chosen[tolerance] = picks
    assert chosen[0.3] == {7} and chosen[None] != {7}


def test_only_the_sampling_levels_have_a_tolerance():
    assert all((lv.tolerance is not None) == (lv.temperature > 0) for lv in LEVEL_SETTINGS.values())


def _random_positions(game_id, count, seed, max_plies=60, **variant):
    game = get_game(game_id, **variant)
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(int(rng.integers(0, max_plies))):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s = s.apply(legal[int(rng.integers(len(legal)))])
        if not s.is_terminal():
            out.append(s)
    return game, out




@pytest.mark.parametrize("game_id,variant,plies", [
    ("connect4", {}, 40), ("gomoku", {}, 120), ("gomoku", {"rule": "renju"}, 120), ("othello", {}, 64),
    ("xiangqi", {}, 160), ("tictactoe", {}, 9)])
def test_each_games_wins_at_once_agrees_with_trying_every_move(game_id, variant, plies):
    game, states = _random_positions(game_id, 60, 7, plies, **variant)
    found = 0
    for s in states:
        expected = wins_by_trying(s)
        assert wins_at_once(s) == expected, s.to_text()
        found += expected
    if game_id in ("connect4", "gomoku", "tictactoe"):
        assert found > 0   # the sample holds positions with a win at once


@pytest.mark.parametrize("game_id,plies,count", [("connect4", 30, 80), ("gomoku", 80, 80), ("tictactoe", 6, 80),
                                                 ("xiangqi", 120, 300)])
def test_glancing_never_misses_a_win_at_once_nor_allows_one_it_could_stop(game_id, plies, count):
    """In xiangqi also where every move that stops the mate puts material en prise (a blunder
    seen in 4 of 5,953 beginner moves before the rule put stopping a win first)."""
    game, states = _random_positions(game_id, count, 11, plies)
    rng = np.random.default_rng(0)
    checked = 0
    for s in states:
        me = s.current_player
        action = glance_choice(s, UniformEvaluator(), 1, rng).action
        child = s.apply(action)
        if wins_by_trying(s):
            assert child.is_terminal() and child.winner() == me
            continue
        stoppable = any(not wins_at_once(s.apply(a)) for a in s.legal_actions())
        if stoppable:
            assert not wins_at_once(child)
            checked += 1
    assert checked > 0


def _xiangqi(fen):
    game = get_game("xiangqi")
    return game, game.state_from_text(fen)


def test_hanging_loss_counts_a_piece_moved_where_it_is_taken():
    # Red's chariot on b0 may step to a0, on the file of Black's chariot on a9, undefended
    game, s = _xiangqi("r2akab2/9/9/9/9/9/9/9/9/1R1K5 w - - 0 1")
    assert s.threatened() == 0.0
    loss = {s.action_to_text(a): s.hanging_loss(a) for a in s.legal_actions()}
    assert loss["b0a0"] == pytest.approx(9.0)
    assert loss["b0c0"] == 0.0 and loss["b0b5"] == 0.0


def test_hanging_loss_does_not_count_a_threat_left_unanswered():
    # Black's chariot already attacks Red's undefended horse; a move elsewhere leaves it (not
    # seeing a threat), which is not a piece put en prise by the move
    game, s = _xiangqi("4ka3/9/9/9/9/9/P8/9/1r5H1/3K5 w - - 0 1")
    assert s.threatened() == pytest.approx(4.0)
    assert s.hanging_loss(s.parse_action("a3a4")) == 0.0


@pytest.mark.parametrize("seed", [1, 2])
def test_glancing_never_puts_material_en_prise_where_it_need_not(seed):
    game, states = _random_positions("xiangqi", 40, seed, 60)
    rng = np.random.default_rng(seed)
    avoided = 0
    for s in states:
        action = glance_choice(s, UniformEvaluator(), 1, rng).action
        if wins_by_trying(s):
            continue
        options = [a for a in s.legal_actions() if not wins_at_once(s.apply(a)) or s.apply(a).is_terminal()]
        safe = [a for a in options if s.hanging_loss(a) < HANGING_MATERIAL]
        if safe:
            assert s.hanging_loss(action) < HANGING_MATERIAL, (s.fen(), s.action_to_text(action))
            avoided += len(safe) < len(s.legal_actions())
    assert avoided > 0   # some positions had moves to avoid


def test_gomokus_noticeable_moves_are_those_near_the_stones():
    game = get_game("gomoku")
    s = game.initial_state()
    size = game.size
    assert s.noticeable_actions() == [(size // 2) * size + size // 2]
    s = s.apply(0)   # a corner stone: the 3x3 corner block, less the stone itself
    assert sorted(s.noticeable_actions()) == sorted(r * size + c for r in range(3) for c in range(3) if (r, c) != (0, 0))


@pytest.mark.parametrize("rule", [None, "renju"])
def test_a_glancing_gomoku_level_plays_near_the_stones(rule):
    game, states = _random_positions("gomoku", 30, 5, 40, **({"rule": rule} if rule else {}))
    rng = np.random.default_rng(1)
    for s in states:
        action = glance_choice(s, UniformEvaluator(), 1, rng).action
        assert action in s.noticeable_actions()


def _weak_levels_benchmark():
    import importlib.util
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "benchmarks"))
    spec = importlib.util.spec_from_file_location("weak_levels_under_test", root / "benchmarks" / "weak_levels.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_benchmark_counts_the_blunders_a_glance_never_makes():
    """benchmarks/weak_levels.py `blunders`: (missed a win at once, allowed one it could stop,
    put material en prise where it need not)."""
    bench = _weak_levels_benchmark()
    game, s = _after("tictactoe", [0, 3, 1, 4])   # X: a1 b1 (c1 wins); O: a2 b2 (threatens c2)
    assert bench.blunders(s, 2) == (0, 0, 0)
    assert bench.blunders(s, 5) == (1, 0, 0)     # blocks instead of winning
    game, s = _after("tictactoe", [0, 4, 8, 1])   # O threatens b3 (7)
    assert bench.blunders(s, 7) == (0, 0, 0)
    assert bench.blunders(s, 2) == (0, 1, 0)
    game, s = _xiangqi("r2akab2/9/9/9/9/9/9/9/9/1R1K5 w - - 0 1")
    assert bench.blunders(s, s.parse_action("b0a0")) == (0, 0, 1)
    assert bench.blunders(s, s.parse_action("b0c0")) == (0, 0, 0)


def test_a_glance_that_follows_the_priors_alone_still_chooses():
    """With the whole draw following the priors, moves the network gives nothing are never
    drawn, and a glance wider than the moves it can draw still plays one."""
    class Peaked:
        def evaluate(self, states, legal):
            out = []
            for acts in legal:
                p = np.zeros(len(acts))
                p[0] = 1.0
                out.append(p)
            return out, np.zeros(len(states))
    game = get_game("connect4")
    result = glance_choice(game.initial_state(), Peaked(), 5, np.random.default_rng(0), prior_share=1.0)
    assert result.action == game.initial_state().legal_actions()[0] and len(result.top) == 1


def test_a_level_solves_only_where_its_games_report_gives_it_a_budget(monkeypatch):
    """models/<game>.json ``level_solve``: Connect Four's max level proves its move from the book
    and exact solves (docs/levels.md); no other level, and no entry that is not a budget."""
    import engine.play.players as players
    g = get_game("connect4")
    reports = {"connect4": {"level_solve": {"max": 48_000_000, "hard": "lots", "strong": 0, "easy": 2.5}}}
    monkeypatch.setattr(players, "_budgets", {})
    monkeypatch.setattr(players, "_model_report", lambda game: reports.get(game.key, {}))
    assert players.level_solve(g, "max") == 48_000_000
    assert all(players.level_solve(g, lv) is None for lv in ("beginner", "easy", "medium", "hard", "strong"))
    assert players.level_solve(get_game("tictactoe"), "max") is None
    reports["connect4"]["level_solve"] = {"max": players.MAX_SOLVE_BUDGET + 1}
    monkeypatch.setattr(players, "_budgets", {})
    assert players.level_solve(g, "max") is None
    reports["connect4"]["level_solve"] = {"max": 1234}
    monkeypatch.setattr(players, "_budgets", {})     # read again from the report above, then put back
    assert players.make_player(g, "max").solve_budget == 1234
    assert players.make_player(g, "strong").solve_budget is None
