"""Records with variations and comments: SGF's nested (;...) branches and C[], PGN's (...)
and {...}, the text record's ``# tree:`` header; written, listed and loaded back for every
game, malformed variations named, nesting bounded, and plain games written as before."""
from __future__ import annotations

import random

import pytest

from games import get_game
from games.records import FORMATS, TREE_FORMATS, RecordFormatError, read_record, write_record
from games.records.tree import GameTree

GAMES = ["tictactoe", "connect2", "connect4", "othello", "gomoku", "xiangqi"]


def game_with_variations(game_id, seed=3):
    """A game of 7 plies with a variation at ply 2 (holding one of its own and a comment), one
    at ply 5, and comments on the start and a main-line move."""
    rng = random.Random(seed)
    game = get_game(game_id)
    states = [game.initial_state()]
    while len(states) < 8:
        s = states[-1]
        states.append(s.apply(rng.choice(s.legal_actions())))
        if states[-1].is_terminal():
            states.pop()
            break
    t = GameTree.from_line(states)
    main = t.main_line()

    def other(node):
        legal = [a for a in node.parent.state.legal_actions() if a != node.action]
        return t.add(node.parent, rng.choice(legal)) if legal else None
    v = other(main[min(2, len(main) - 1)])
    v.comment = "tried this: (wins)?"
    if not v.state.is_terminal():
        other(t.add(v, v.state.legal_actions()[0]))
    if len(main) > 5:
        other(main[5])
    t.root.comment = "the start"
    main[min(3, len(main) - 1)].comment = "a main-line note"
    return t


def shape(t):
    """Every position of a tree with its comment, and the main line."""
    return ({(n.state.moves, n.comment) for n in t.nodes()}, [n.state.moves for n in t.main_line()])


def formats_of(game_id):
    return [f for f in TREE_FORMATS if game_id in FORMATS[f].games]


@pytest.mark.parametrize("game_id, fmt", [(g, f) for g in GAMES for f in formats_of(g)])
def test_variations_and_comments_survive_the_writer_and_the_reader(game_id, fmt):
    t = game_with_variations(game_id)
    state = t.main_line()[-1].state
    text = write_record(state, fmt, {"you": "first"}, tree=t)
    back = read_record(text)                               # no game hint
    assert back.state.game.key == state.game.key and back.state.moves == state.moves
    assert back.tree is not None and shape(back.tree) == shape(t)
    assert write_record(back.state, fmt, {"you": "first"}, tree=back.tree) == text


@pytest.mark.parametrize("notation", ["wxf", "chinese"])
def test_pgn_variations_read_back_in_every_notation(notation):
    t = game_with_variations("xiangqi")
    state = t.main_line()[-1].state
    back = read_record(write_record(state, "pgn", {}, tree=t, notation=notation))
    assert shape(back.tree) == shape(t)


@pytest.mark.parametrize("game_id, fmt", [(g, f) for g in GAMES for f in formats_of(g)])
def test_a_game_without_variations_is_written_exactly_as_before(game_id, fmt):
    t = game_with_variations(game_id)
    line = [n.state for n in t.main_line()]
    state = line[-1]
    assert write_record(state, fmt, {"you": "first"}, tree=GameTree.from_line(line)) == \
        write_record(state, fmt, {"you": "first"})
    assert read_record(write_record(state, fmt, {})).tree is None


@pytest.mark.parametrize("game_id", GAMES)
def test_saved_records_with_variations_are_listed_and_load_for_every_game(game_id, tmp_path):
    from gui.records import list_records, load_game, load_record, read_info, save_record
    t = game_with_variations(game_id)
    state = t.main_line()[-1].state
    path = save_record(state, {"you": "first"}, tmp_path, tree=t)
    [info] = list_records(tmp_path)
    assert not info.error and info.game_id == game_id and info.meta["moves"] == str(len(state.moves))
    assert read_info(path, replay=False).meta["moves"] == str(len(state.moves))   # the header alone: the main line
    loaded, meta = load_record(path)
    assert loaded.moves == state.moves
    assert shape(load_game(path).tree) == shape(t)


def test_the_apps_analysis_and_a_persons_comment_on_one_move_both_load_back():
    t = game_with_variations("gomoku")
    state = t.main_line()[-1].state
    meta = {"analysis": "3 v=0.25 n=40 best=h8", "analysis_level": "strong"}
    text = write_record(state, "sgf", meta, tree=t)
    assert "a main-line note\nZeroBoard analysis v=0.25" in text
    back = read_record(text)
    assert back.meta["analysis"] == "3 v=0.25 n=40 best=h8" and back.meta["analysis_level"] == "strong"
    assert back.tree.main_line()[3].comment == "a main-line note"     # the analysis is not copied into it
    assert write_record(back.state, "sgf", back.meta, tree=back.tree) == text


@pytest.mark.parametrize("text, problem", [
    ("(;GM[4]SZ[15];B[hh](;W[ii];B[jj])(;W[ij];B[zz]))",
     "line 1, column 42: in a variation: move 3: point \\[zz\\] is off"),
    ("(;GM[4]SZ[15];B[hh](;W[ii];B[jj])(;B[ij]))", "in a variation: move 2: Black plays, but it is White's turn"),
    ("(;GM[4]SZ[15];B[hh](;W[ii]", "never closed"),
    ('[Game "Chinese Chess"]\n\n1. H2-E2 (1. H2-I4) H9-G7 *', "line 3, column 14: in a variation: move 1"),
    ('[Game "Chinese Chess"]\n\n1. H2-E2 (1. H0-G2 H9-G7 *', "a variation '\\(' is never closed"),
    ('[Game "Chinese Chess"]\n\n(1. H2-E2) H2-E2 *', "before any move"),
    ("# ZeroBoard game record\n# game: tictactoe\n# tree: b2 (b2 a1\nb2\n", "line 3: a variation '\\(' is never"),
    ("# ZeroBoard game record\n# game: tictactoe\n# tree: b2 a1\nb2\n", "line 3: the tree header's main line"),
])
def test_a_malformed_variation_is_an_error_naming_the_problem(text, problem):
    with pytest.raises(RecordFormatError, match=problem):
        read_record(text)


def test_deep_nesting_is_refused_quickly_in_sgf_and_pgn():
    deep_sgf = "(;GM[4]SZ[15];B[hh]" + "(;W[ii]" * 50_000 + ")" * 50_001
    with pytest.raises(RecordFormatError, match="nested more than"):
        read_record(deep_sgf)
    deep_pgn = '[Game "Chinese Chess"]\n\n1. H2-E2 ' + "(1. H2-E2 " * 50_000 + ")" * 50_000 + " *"
    with pytest.raises(RecordFormatError, match="nested more than"):
        read_record(deep_pgn)


def test_a_variation_of_a_variation_keeps_its_place_in_sgf():
    text = "(;GM[4]SZ[15];B[hh](;W[ii];B[jj](;W[kk])(;W[ll]C[x]))(;W[ij]))"
    r = read_record(text)
    t = r.tree
    assert r.state.moves == t.main_line()[-1].state.moves and len(r.state.moves) == 4
    [ii, ij] = t.main_line()[1].children
    assert len(ii.children[0].children) == 2 and ii.children[0].children[1].comment == "x"
    assert ij.state.moves[-1] != ii.state.moves[-1]
