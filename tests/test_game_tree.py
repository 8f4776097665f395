"""The game tree (`games.records.tree`): a main line with variations and comments, built,
navigated, promoted and pruned, and spelled as move text with variations in parentheses."""
from __future__ import annotations

import pytest

from games import get_game
from games.records import RecordFormatError
from games.records import tree as tree_mod
from games.records.tree import GameTree, join_rav, read_rav, write_rav

TTT = get_game("tictactoe")


def line(*actions):
    states = [TTT.initial_state()]
    for a in actions:
        states.append(states[-1].apply(a))
    return states


def branched():
    """b2 a1 c3 on the main line; a3 instead of a1; c1 instead of b2."""
    t = GameTree.from_line(line(4, 0, 8))
    b2 = t.root.children[0]
    a3 = t.add(b2, 6)
    c1 = t.add(t.root, 2)
    return t, b2, a3, c1


def words(t):
    return join_rav(write_rav(t.root, lambda n, _: n.parent.state.action_to_text(n.action)))


def test_a_line_is_a_main_line_of_first_children():
    t = GameTree.from_line(line(4, 0, 8))
    assert [n.action for n in t.main_line()] == [None, 4, 0, 8]
    assert t.count == 4 and t.plain
    assert t.main_line()[-1].state.moves == (4, 0, 8)


def test_a_different_move_branches_and_the_same_move_is_the_same_node():
    t, b2, a3, c1 = branched()
    assert t.add(b2, 6) is a3 and t.add(b2, 0) is b2.children[0]
    assert [n.action for n in b2.children] == [0, 6]      # the first move played stays the main line
    assert not a3.is_main and b2.children[0].is_main
    assert t.has_variations() and not t.plain and t.count == 6


def test_navigation_finds_paths_lines_and_alternatives():
    t, b2, a3, c1 = branched()
    assert t.path_to(a3) == [t.root, b2, a3]
    assert [n.action for n in t.line_through(b2)] == [None, 4, 0, 8]
    assert t.find((4, 6)) is a3 and t.find((4, 1)) is None
    assert t.sibling(b2.children[0], 1) is a3 and t.sibling(a3, -1) is b2.children[0]
    assert t.sibling(a3, 1) is None and t.sibling(t.root, 1) is None
    assert [n.action for n in t.nodes()] == [None, 4, 0, 8, 6, 2]   # main lines before variations


def test_promoting_makes_the_whole_way_to_a_move_the_main_line():
    t, b2, a3, c1 = branched()
    deep = t.add(a3, 8)
    assert t.promote(deep)
    assert [n.action for n in t.main_line()] == [None, 4, 6, 8]
    assert not t.promote(deep)                            # already the main line
    assert t.promote(c1) and [n.action for n in t.main_line()] == [None, 2]


def test_deleting_a_move_removes_everything_after_it_and_says_how_much():
    t, b2, a3, c1 = branched()
    assert t.delete(b2.children[0]) == 2                  # a1 and c3
    assert b2.children == [a3] and a3.is_main             # the variation is the main line now
    assert t.count == 4
    with pytest.raises(ValueError):
        t.delete(t.root)


def test_a_tree_spelled_as_move_text_reads_back_the_same():
    t, b2, a3, c1 = branched()
    a3.comment = "the {corner}"
    t.root.comment = "a start"
    text = words(t)
    assert text == "{a start} b2 (c1) a1 (a3 {the (corner)}) c3"
    back = read_rav(text, TTT.initial_state())
    assert words(back) == text and back.count == t.count
    assert back.find((4, 6)).comment == "the (corner)"


def test_a_long_game_and_a_deep_tree_need_no_recursion():
    g = get_game("gomoku", size=15)
    s = g.initial_state()
    t = GameTree(s)
    node = t.root
    for k in range(200):                                  # a variation at every move
        if node.state.is_terminal():
            break
        legal = node.state.legal_actions()
        node = t.add(node, legal[(k * 37) % len(legal)])
        t.add(node.parent, legal[(k * 37 + 1) % len(legal)])
    assert len(node.state.moves) > 100
    text = join_rav(write_rav(t.root, lambda n, _: n.parent.state.action_to_text(n.action)))
    back = read_rav(text, s)
    assert back.count == t.count and back.main_line()[-1].state.moves == node.state.moves


@pytest.mark.parametrize("text, problem", [
    ("b2 (a1", "never closed"),
    ("b2 a1)", "closes no variation"),
    ("(b2) a1", "before any move"),
    ("b2 a1 (b2)", "in a variation: move 2"),            # b2 is taken
    ("b2 {open", "never closed"),
])
def test_malformed_move_text_is_an_error_that_names_the_problem(text, problem):
    with pytest.raises(RecordFormatError, match=problem.replace("(", r"\(")):
        read_rav(text, TTT.initial_state())


def test_nesting_and_size_are_bounded(monkeypatch):
    monkeypatch.setattr(tree_mod, "MAX_NESTING", 3)
    deep = "b2 " + "a1 (" * 4 + "c1" + ")" * 4
    with pytest.raises(RecordFormatError, match="nested more than 3"):
        read_rav(deep, TTT.initial_state())
    monkeypatch.setattr(tree_mod, "MAX_NODES", 3)
    with pytest.raises(RecordFormatError, match="more than 3 positions"):
        read_rav("b2 a1 c3", TTT.initial_state())
