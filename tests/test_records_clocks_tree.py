"""A game with clocks and variations: its records keep both (the clocks on the main line)."""
from __future__ import annotations

import pytest

from games import get_game
from games.records import read_record, write_record
from games.records.tree import GameTree


def _game_with_a_variation(game_id):
    """Four main-line moves, a different second move (a variation with a comment) and a
    comment on the third move."""
    game = get_game(game_id)
    states = [game.initial_state()]
    for _ in range(4):
        s = states[-1]
        states.append(s.apply(s.legal_actions()[0]))
    tree = GameTree.from_line(states)
    main = tree.main_line()
    other = [a for a in states[1].legal_actions() if a != main[2].action][3]
    var = tree.add(main[1], other)
    var.comment = "another try"
    tree.add(var, var.state.legal_actions()[0])
    main[3].comment = "the main idea"
    return game, states[-1], tree


@pytest.mark.parametrize("game_id,fmt,control,clocks", [
    ("xiangqi", "pgn", "600+5", "1 598;2 597;3 590;4 580"),
    ("gomoku", "sgf", "300 3x30", "1 298.5;2 297.0;3 0.0 3;4 0.0 2"),
])
def test_clocks_and_a_variation_both_survive_a_record(game_id, fmt, control, clocks):
    game, state, tree = _game_with_a_variation(game_id)
    meta = {"time_control": control, "clocks": clocks}
    text = write_record(state, fmt, meta, tree=tree)
    back = read_record(text, game)
    assert back.meta["time_control"] == control
    assert back.meta["clocks"].replace(".0", "") == clocks.replace(".0", "")   # the main line's times
    assert back.state.moves == state.moves
    assert back.tree is not None and back.tree.has_variations()
    main = back.tree.main_line()
    var = main[1].children[1]
    assert var.comment == "another try" and var.children   # the variation, its comment and its move
    assert main[3].comment == "the main idea"               # no clock in what the person wrote
    assert all("clk" not in n.comment for n in back.tree.nodes())
    # the main line's moves carry their clocks as the plain record writes them; the variation's none
    plain = write_record(state, fmt, meta)
    if fmt == "pgn":
        for clk in ("{[%clk 0:09:58]}", "{[%clk 0:09:57]}", "{[%clk 0:09:50]}", "{[%clk 0:09:40]}"):
            assert clk in text and clk in plain
        assert text.count("[%clk") == plain.count("[%clk") == 4
    else:
        for prop in ("BL[298.5]", "WL[297.0]", "BL[0.0]OB[3]", "WL[0.0]OW[2]"):
            assert prop in text and prop in plain
        assert text.count("L[") == plain.count("L[") == 4
    # written again, the same record
    assert write_record(back.state, fmt, back.meta, tree=back.tree) == write_record(state, fmt, back.meta, tree=tree)


def test_a_pgn_comment_with_a_clock_and_words_keeps_both_apart():
    game = get_game("xiangqi")
    text = ('[Game "Chinese Chess"]\n[TimeControl "300"]\n\n'
            '1. H2-E2 {[%clk 0:04:55] a calm start} H9-G7 {[%clk 0:04:50]} '
            '(1... C6-C5 {[%clk 0:04:40] sharper}) 2. H0-G2 *\n')
    rec = read_record(text, game)
    assert rec.meta["clocks"] == "1 295.0;2 290.0"          # the variation's clock is not the game's
    main = rec.tree.main_line()
    assert main[1].comment == "a calm start" and main[2].comment == ""
    assert main[1].children[1].comment == "sharper"


def test_a_plain_game_with_clocks_is_written_as_before():
    game = get_game("gomoku")
    s = game.initial_state()
    states = [s]
    for _ in range(3):
        states.append(states[-1].apply(states[-1].legal_actions()[0]))
    meta = {"time_control": "300", "clocks": "1 290;2 280;3 270"}
    assert write_record(states[-1], "sgf", meta, tree=GameTree.from_line(states)) == \
        write_record(states[-1], "sgf", meta)
