"""Xiangqi's chase rule (Asian / WXF rules): a repetition that one side forced by chasing one piece
with every move loses for that side; perpetual check is worse than a chase; mutual chases draw.

Each position is set up by FEN and the cycle played move by move through the state API until the
position occurs for the third time; every test runs on the compiled rules and on the Python ones.
The WXF rule numbers are those of the Asian rules' detail rules (wxf.org, "Asia rule").
"""
from __future__ import annotations

import pytest

import games.xiangqi as xq
from games import get_game
from games import xiangqi_moves as ref
from games.records import load_bytes, write_record
from games.xiangqi_chase import perpetual_chasers
from games.xiangqi_notation import parse_iccs

GAME = get_game("xiangqi")
RED, BLACK = 0, 1


@pytest.fixture(params=["compiled", "python"], autouse=True)
def rules(request):
    """Every test twice: with the compiled core (where it is built) and with the Python rules."""
    if request.param == "compiled" and xq._core is None:
        pytest.skip("the compiled xiangqi core is not built here")
    saved = xq._core
    if request.param == "python":
        xq._core = None
    yield
    xq._core = saved


def repeat(fen: str, lead: tuple[str, ...], cycle: tuple[str, ...]):
    """The position after ``lead`` then ``cycle`` twice: the position after ``lead`` occurs for the
    third time with the last move (and the game is not over one move earlier)."""
    s = GAME.state_from_text(fen)
    moves = list(lead) + list(cycle) * 2
    for i, m in enumerate(moves):
        assert not s.is_terminal(), f"the game ended before {m} (move {i + 1}): {s.end_reason()}"
        s = s.apply(s.parse_action(m))
    assert s.is_terminal() and s.repetitions() == 3
    return s


def verdict(state) -> tuple[int | None, str]:
    return state.winner(), state.end_reason()


# Red's chariot follows Black's horse between c7 and b9: c3 attacks c7, b3 attacks b9.
HORSE_CHASE = ("4k4/4a4/2n6/9/9/9/R8/9/9/3K5 w", ("a3c3",), ("c7b9", "c3b3", "b9c7", "b3c3"))


def test_a_chariot_chasing_an_unprotected_horse_loses():
    assert verdict(repeat(*HORSE_CHASE)) == (BLACK, "perpetual chase")


def test_a_chariot_attacking_a_protected_horse_is_no_chase():
    # the same chase, but the chariots on a9 and i7 guard b9 and c7: a chariot that takes a
    # protected horse loses itself, so the attacks are not chases (a draw), unlike the open horse
    protected = ("r4k3/9/2n5r/9/9/9/4R4/9/9/4K4 w", ("e3c3",), HORSE_CHASE[2])
    assert verdict(repeat(*protected)) == (None, "repetition")
    assert verdict(repeat(*HORSE_CHASE)) == (BLACK, "perpetual chase")


def test_a_cannon_chasing_a_protected_chariot_loses():
    # WXF rule 15: a cannon may not chase a chariot, even a protected one (the i7 chariot guards
    # a7 and c7); the black soldiers on a6 and c6 are the cannon's screens
    s = repeat("5k3/9/r7r/p1p6/9/9/9/2C6/9/4K4 w", (), ("c2a2", "a7c7", "a2c2", "c7a7"))
    assert verdict(s) == (BLACK, "perpetual chase")


def test_a_horse_chasing_a_protected_chariot_loses_whichever_side_chases():
    # a horse is worth less than a chariot, so the e4/e7 chariot's guard on e9 does not help; here
    # Red's horse chases from c3 and d5, and the side that chases loses whichever colour it is
    s = repeat("3kr4/9/9/9/3N5/4r4/9/9/9/5K3 w", (), ("d5c3", "e4e7", "c3d5", "e7e4"))
    assert verdict(s) == (BLACK, "perpetual chase")
    # the same cycle with the colours swapped: Black chases and loses
    s = repeat("5k3/9/9/9/4R4/3n5/9/9/9/3KR4 b", (), ("d4c6", "e5e2", "c6d4", "e2e5"))
    assert verdict(s) == (RED, "perpetual chase")


# Red's chariot d5 chases Black's cannon d6: stepping to g5 it uncovers the d2 chariot, stepping back it
# attacks again. Black's soldier e3<->d3 answers with a chase of its own (it screens the d6 cannon
# onto the d2 chariot, then steps away so that the d5 chariot screens it), or Black only shuffles.
MUTUAL = "5k3/9/9/3c5/3R5/9/4p4/3R5/9/4K4 w"


def test_a_mutual_chase_is_a_draw():
    assert verdict(repeat(MUTUAL, (), ("d5g5", "e3d3", "g5d5", "d3e3"))) == (None, "repetition")
    # the same chase against a general that only steps to and fro: the chaser loses
    assert verdict(repeat(MUTUAL, (), ("d5g5", "f9f8", "g5d5", "f8f9"))) == (BLACK, "perpetual chase")


def test_a_soldier_that_has_not_crossed_the_river_is_not_chased():
    # the c-file chariot steps off rank 6 (uncovering the a6 chariot) and back: each move attacks
    # the e6 soldier anew, but a soldier on its own side of the river may be chased for ever
    assert verdict(repeat("5k3/9/9/R1R1p4/9/9/9/9/9/3K5 w", (), ("c6c5", "f9f8", "c5c6", "f8f9"))) == \
        (None, "repetition")
    # the same attacks on a soldier across the river (e4) are a chase
    assert verdict(repeat("5k3/9/9/9/9/R1R1p4/9/9/9/3K5 w", (), ("c4c3", "f9f8", "c3c4", "f8f9"))) == \
        (BLACK, "perpetual chase")


def test_a_check_that_also_attacks_the_chased_piece_keeps_the_chase_going():
    # Red's horse checks from g8 (attacking the i9 chariot too) and returns to i7, where it screens
    # the i3 cannon onto the chariot: every Red move attacks the chariot, half of them with check.
    # Not perpetual check (not every move checks), but a perpetual chase: Red loses.
    s = repeat("4k3r/9/8N/9/9/9/8C/9/9/5K3 w", (), ("i7g8", "e9d9", "g8i7", "d9e9"))
    assert verdict(s) == (BLACK, "perpetual chase")


def test_perpetual_check_loses_even_against_a_perpetual_chase():
    # Red's chariot checks on rank 9 and rank 8; each step of Black's general uncovers a cannon
    # (screened by the h9 / h8 horse) onto the chariot: Black chases, Red checks, and the checker loses
    fen = "5k1nc/7nc/R8/9/9/9/9/9/9/3K5 w"
    cycle = ("f9f8", "a9a8", "f8f9", "a8a9")
    s = repeat(fen, ("a7a9",), cycle)
    assert verdict(s) == (BLACK, "perpetual check")
    moves = [parse_iccs(m) for m in cycle * 2]
    assert perpetual_chasers(s.board, moves, BLACK, lambda b, p: ref.legal_moves(list(b), p)) == (False, True)


def test_a_chariot_chasing_two_pieces_in_turn_does_not_chase_perpetually():
    # WXF rule 32: Red's chariot attacks the c7 horse from c3 and the unprotected b5 horse from b3
    # while the first one hops to e8 and back: never one piece with every move, so a draw
    s = repeat("5k3/9/2n6/9/1n7/9/R8/9/9/4K4 w", ("a3c3",), ("c7e8", "c3b3", "e8c7", "b3c3"))
    assert verdict(s) == (None, "repetition")
    assert verdict(repeat(*HORSE_CHASE)) == (BLACK, "perpetual chase")


def test_an_exchange_offered_between_chariots_is_no_chase():
    # WXF rule 24: a chariot attacking a chariot that can take it back offers an exchange; Red's
    # chariot steps onto the black chariot's file each time it moves (a draw) ...
    cycle = ("b3a3", "a7b7", "a3b3", "b7a7")
    assert verdict(repeat("3k5/9/r8/9/9/9/1R7/9/9/4K4 w", (), cycle)) == (None, "repetition")
    # ... while the same attacks on a cannon, which cannot take back, chase it
    assert verdict(repeat("3k5/9/c8/9/9/9/1R7/9/9/4K4 w", (), cycle)) == (BLACK, "perpetual chase")


def test_the_chase_result_goes_into_the_records():
    s = repeat(*HORSE_CHASE)
    text = write_record(s, "pgn")
    assert '[Result "0-1"]' in text and text.rstrip().endswith("0-1")
    back = load_bytes(text.encode(), GAME, "chase.pgn").state
    assert back.moves == s.moves and verdict(back) == (BLACK, "perpetual chase")


def test_the_search_scores_a_move_that_completes_a_perpetual_chase_as_lost():
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, SearchConfig, Tree
    final = repeat(*HORSE_CHASE)
    before = GAME.state_from_text(final.to_text().rsplit(" ", 1)[0])   # Red to play b3c3 once more
    chase = before.parse_action("b3c3")
    tree = Tree(before)
    MCTS(UniformEvaluator(), SearchConfig(), seed=0).search([tree], 200)
    stats = {m.action: m for m in tree.stats()}
    assert stats[chase].visits >= 1 and stats[chase].q == -1.0   # the rules' verdict: a lost game
    assert tree.stats(limit=1)[0].action != chase


def test_the_engines_have_no_move_once_a_perpetual_chase_ended_the_game():
    from engine.core.evaluators import UniformEvaluator
    from engine.protocols.uci import UCIEngine
    from engine.protocols.ucci import UCCIEngine
    final = repeat(*HORSE_CHASE)
    ucci = UCCIEngine(GAME, evaluator=UniformEvaluator(), seed=0)
    assert ucci.handle_line("position fen " + final.to_text()) == []
    assert ucci.handle_line("go nodes 10") == ["nobestmove"]
    uci = UCIEngine(GAME, evaluator=UniformEvaluator(), seed=0)
    uci.handle_line("position fen " + final.to_text())
    assert uci.handle_line("go nodes 10")[-1] == "bestmove (none)"
