"""A player's exact solves of its move (`MCTSPlayer.solve_budget`, Connect Four's `exact_result` and
`exact_move_result`): the move it plays keeps the root's exact result, whatever the search
preferred; without the solves or past their budget the search alone chooses, and when a clock
leaves less than the level's own time only the opening book is asked."""
from __future__ import annotations

import random

import games.connect4 as c4
from engine.core.evaluators import UniformEvaluator
from engine.play.players import LEVEL_SETTINGS, MCTSPlayer
from games import get_game

GAME = get_game("connect4")


def move_results(s) -> dict[int, int]:
    return {a: s.exact_move_result(a, 10**8)[0] for a in s.legal_actions()}


def endgames(count: int, seed: int) -> list:
    """Positions of long random games with 10-24 empty cells, nobody having won, where the
    moves' exact results differ (some move is worse than the best)."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        s = GAME.initial_state()
        while not s.is_terminal():
            actions = [a for a in s.legal_actions() if s.apply(a).winner() is None] or s.legal_actions()
            s = s.apply(rng.choice(actions))
            empties = c4.CELLS - s._mask.bit_count()
            if not s.is_terminal() and 10 <= empties <= 24 and rng.random() < 0.3:
                results = move_results(s)
                if len(set(results.values())) > 1:
                    out.append((s, results))
                break
    return out


def test_the_solving_player_keeps_the_best_exact_result_where_the_search_alone_does_not():
    c4.clear_solved()
    erred = 0
    for s, results in endgames(40, seed=11):
        best = max(results.values())
        plain = MCTSPlayer(GAME, UniformEvaluator(), sims=4, seed=1).choose(s)
        solving = MCTSPlayer(GAME, UniformEvaluator(), sims=4, seed=1, solve_budget=10**8).choose(s)
        assert results[solving.action] == best, s.to_text()
        assert solving.proven == float(best)
        if best > -1 and results[plain.action] == best:
            assert solving.action == plain.action   # the search's favourite where it keeps the result
        erred += results[plain.action] < best
    assert erred >= 5   # the four-visit search alone often errs here: the solve is what keeps it right


def test_in_the_opening_the_book_keeps_the_result():
    """From 2-ply openings, where a solve would take a minute, the move keeps the book's result."""
    for text in ("44", "31", "65", "17"):
        s = GAME.state_from_text(text)
        value = s.exact_result(0)[0]
        chosen = MCTSPlayer(GAME, UniformEvaluator(), sims=4, seed=1, solve_budget=10**6).choose(s)
        assert s.exact_move_result(chosen.action, 0)[0] == value and chosen.proven == float(value)


def test_past_its_budget_or_beyond_the_book_with_a_short_clock_the_search_alone_chooses():
    s, _ = endgames(1, seed=12)[0]
    alone = MCTSPlayer(GAME, UniformEvaluator(), sims=8, seed=3).choose(s)
    starved = MCTSPlayer(GAME, UniformEvaluator(), sims=8, seed=3, solve_budget=1).choose(s)
    assert starved.action == alone.action and starved.proven == alone.proven
    clocked = MCTSPlayer(GAME, UniformEvaluator(), sims=8, seed=3, seconds=5.0, solve_budget=10**8).choose(s, budget=1.0)
    assert clocked.action == alone.action and clocked.proven == alone.proven


def test_with_a_short_clock_the_book_still_keeps_the_result_in_the_opening():
    s = GAME.state_from_text("44")
    value = s.exact_result(0)[0]
    chosen = MCTSPlayer(GAME, UniformEvaluator(), sims=4, seed=1, seconds=5.0, solve_budget=10**8).choose(s, budget=0.5)
    assert s.exact_move_result(chosen.action, 0)[0] == value and chosen.proven == float(value)


def test_only_connect_fours_max_level_solves_and_a_level_spec_can_ask_for_it():
    """Connect Four's max level proves its moves from the book and exact solves since 2026-12-05
    (models/connect4.json ``level_solve``; docs/levels.md, "Connect Four's max level with the book
    and its solves"); no other level solves, and a level spec's solve=N measures any budget."""
    from engine.commands.specs import SpecError, player_from_spec
    assert all(not hasattr(LEVEL_SETTINGS[name], "solve_budget") for name in LEVEL_SETTINGS)
    assert player_from_spec(GAME, "level:max", seed=1).solve_budget == 48_000_000
    assert all(player_from_spec(GAME, f"level:{name}", seed=1).solve_budget is None
               for name in ("medium", "hard", "strong"))
    assert player_from_spec(get_game("tictactoe"), "level:max", seed=1).solve_budget is None
    player = player_from_spec(GAME, "level:max?cap=0&solve=5000", seed=1)
    assert player.solve_budget == 5000 and player.seconds is None
    assert player_from_spec(GAME, "level:max?solve=7", seed=1).solve_budget == 7
    for bad in ("level:max?solve=0", "level:max?solve=x", "level:max?cap=1", "level:max?solve=5&solve=6",
                "level:max?depth=3"):
        try:
            player_from_spec(GAME, bad, seed=1)
        except SpecError:
            continue
        raise AssertionError(bad)


def test_every_search_reports_the_books_result_of_its_root_without_changing_its_move():
    """A search whose tree has not proved its root says what the book knows of it (the study panel
    and the review read it), and plays the move it would have played."""
    for text in ("1", "3", "44", "4453"):
        s = GAME.state_from_text(text)
        chosen = MCTSPlayer(GAME, UniformEvaluator(), sims=4, seed=1).choose(s)
        assert chosen.proven == float(s.exact_result(0)[0])
    beyond = GAME.state_from_text("12345671")
    assert MCTSPlayer(GAME, UniformEvaluator(), sims=4, seed=1).choose(beyond).proven is None


def test_a_position_one_ply_before_the_books_end_takes_its_result_from_its_moves(monkeypatch):
    """A position not in the book, every position after whose moves is: its result is the best
    of theirs, with nothing spent; one move short of that, it is solved (here: past a budget of 0)."""
    s = endgames(1, seed=13)[0][0]
    children = {}
    for a in s.legal_actions():
        c = s.apply(a)
        if c.winner() is None and not c.is_terminal():
            children[c4.book_key(c._cur, c._mask)] = c4.solve(c._cur, c._mask)
    monkeypatch.setattr(c4, "_book", dict(children))
    want = max(s.exact_move_result(a, 10**8)[0] for a in s.legal_actions())
    assert s.exact_result(0) == (want, 0)
    assert s.exact_result(0)[0] == c4.solve(s._cur, s._mask)
    children.pop(next(iter(children)))
    monkeypatch.setattr(c4, "_book", children)
    assert s.exact_result(0) == (None, -1)
