"""The compiled xiangqi core (games/_xiangqi_c.c) against its reference, the Python rules.

Every comparison is exact: a disagreement on one position fails. The positions come from random
games (from the start, from the xiangqi records in tests/data and from end-game FENs), played
with a bias towards captures, checks and moves that walk back, so that mates, stalemates,
repetitions, perpetual checks and the 120-ply rule all occur. The tests that need the compiled
module skip when it is not built; the fallback tests run everywhere.
"""
from __future__ import annotations

import gc
import random
from array import array
from contextlib import contextmanager
from pathlib import Path

import pytest

from native_support import check_forced_python, check_silent, check_stale_refused, check_unbuilt

import games.xiangqi as xq
from games import get_game, native
from games import xiangqi_moves as ref
from games.records import load_bytes

try:
    from games import _xiangqi_c as core
except ImportError:
    core = None

DATA = Path(__file__).resolve().parent / "data" / "records"
GAME = get_game("xiangqi")
needs_core = pytest.mark.skipif(core is None, reason="the compiled xiangqi core is not built here (no C compiler "
                                                     "when the project was installed): only the Python rules run")

#: end-game positions that lead to every end of a game: checkmate, stalemate, perpetual check by
#: either side, repetition with checks on both sides, the 120-ply rule, and a general pinned on
#: an open file (the flying-general rule)
END_GAMES = [
    "3k5/9/9/9/3R5/9/9/9/9/4K4 b",
    "3k5/9/9/9/R8/9/9/9/9/4K4 w",
    "3k5/R8/9/9/9/9/9/9/9/4K4 b",
    "4k4/9/9/9/9/9/9/9/r8/3K5 w",
    "5k3/9/R8/9/9/9/9/9/9/3K5 w",
    "3k5/9/9/9/9/9/9/r8/9/5K3 b",
    "1r7/5k3/9/9/9/9/5N3/9/3K1n2c/5C3 w",
    "3k5/9/9/9/9/9/9/9/9/4K4 w - - 110 70",
    "4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1",
    "3k5/4a4/4c4/9/9/9/9/4R4/4A4/4K4 b - - 0 1",
    "2bak4/4a4/4b4/2n1c4/2p3p2/9/2P1N1P2/4B4/4A4/2BAK4 w - - 0 1",
]


def record_positions() -> list[str]:
    """The start position of each xiangqi record in tests/data and every position of its game."""
    out = []
    for name in ("xqbase_iccs.pgn", "wxf_endgame.pgn", "chinese_moves.pgn"):
        state = load_bytes((DATA / name).read_bytes(), None, name).state
        root, _, moves = state.to_text().partition(" moves ")
        played = moves.split()
        out += [root + (" moves " + " ".join(played[:i]) if i else "") for i in range(len(played) + 1)]
    return out


@contextmanager
def rules(module):
    """games.xiangqi's states use ``module`` (the compiled core, or None: the Python rules) inside."""
    saved = xq._core
    xq._core = module
    if module is not None:   # games.xiangqi hands the keys over only to the core it loaded itself
        module.set_zobrist([key for row in xq._ZOBRIST for key in row], xq._ZOBRIST_BLACK)
    try:
        yield
    finally:
        xq._core = saved


def observe(state) -> tuple:
    """Everything the rules say about a position, through the state API."""
    return (state.board, state.current_player, state.legal_actions(), state.is_terminal(), state.winner(),
            state.end_reason(), state.is_check(), state.proven_value(), state.winning_capture(),
            state.repetitions(), state.no_capture_plies, state.fen(), state.key(), planes(state.encode()),
            planes(state.encode_planes(16)), planes(state.encode_planes(3)), state.heuristic(0), state.heuristic(1),
            state.material(), state.tactical_priors(), state.capture_gain())


def planes(x) -> tuple:
    """An encoding as something == compares exactly: its type, shape and bytes."""
    return x.dtype.str, x.shape, x.flags.writeable, x.tobytes()


def choose(rng: random.Random, state, actions: list[int]) -> int:
    """A random move, often a capture, a check or the move that undoes the mover's last one."""
    roll = rng.random()
    if roll < 0.3 and len(state.moves) >= 2:
        back = _undo(state)
        if back in actions:
            return back
    if roll < 0.5:
        captures = [a for a in actions if state.captured(a)]
        if captures and rng.random() < 0.7:
            return rng.choice(captures)
    if roll < 0.7:
        checks = [a for a in rng.sample(actions, min(len(actions), 8)) if state.apply(a).is_check()]
        if checks:
            return rng.choice(checks)
    return rng.choice(actions)


def _undo(state) -> int | None:
    """The action that moves the piece the side to move moved last back to where it came from."""
    me = state.current_player   # two plies ago it was this side's turn too
    f, t = xq._MOVE_OF[me][state.moves[-2]]
    return xq._ACTION_OF[me].get((t, f))


def twin_games(starts: list[str], games_per_start: int, plies: int, seed: int) -> dict[str, int]:
    """Random games played in step on both paths, every position observed on both; returns how
    often each end reason was met."""
    reasons: dict[str, int] = {}
    rng = random.Random(seed)
    for text in starts:
        for _ in range(games_per_start):
            with rules(core):
                c = GAME.state_from_text(text)
            with rules(None):
                p = GAME.state_from_text(text)
            for _ in range(plies):
                with rules(core):
                    seen_c = observe(c)
                with rules(None):
                    seen_p = observe(p)
                assert seen_c == seen_p, p.to_text()
                if p.is_terminal():
                    reasons[p.end_reason()] = reasons.get(p.end_reason(), 0) + 1
                    break
                with rules(None):
                    a = choose(rng, p, p.legal_actions())
                    p = p.apply(a)
                with rules(core):
                    made = c.apply_nth(c.legal_actions().index(a))
                    c = c.apply(a)
                    assert_same_position(made, c)
    return reasons


def assert_same_position(made, applied) -> None:
    """``made`` (by the compiled core's one call, `apply_nth`) is ``applied`` (`apply`, then the
    leaf call when asked), slot by slot."""
    applied.is_terminal()   # fills the leaf call's caches
    assert made.board == applied.board, applied.to_text()   # one packed, the other a tuple
    assert made.moves == applied.moves, applied.to_text()   # one linked to its parent, the other a tuple
    for slot in xq.XiangqiState.__slots__:
        if slot not in ("_board", "_packed", "_moves", "_up"):
            assert getattr(made, slot) == getattr(applied, slot), (slot, applied.to_text())


# --- the state API, both paths in step -------------------------------------------------------
@needs_core
def test_random_games_from_the_start_agree_position_by_position():
    reasons = twin_games([xq.START_FEN], 24, 260, seed=1)
    assert sum(reasons.values()) >= 10, reasons


@needs_core
def test_random_games_from_end_games_and_records_reach_every_end_and_agree():
    starts = END_GAMES + record_positions()[::3]
    reasons = twin_games(starts, 3, 200, seed=2)
    assert set(reasons) == {"checkmate", "stalemate", "perpetual check", "repetition",
                            "no capture in 120 plies"}, reasons


# --- the functions, position by position ---------------------------------------------------
def sample_boards(count: int, seed: int) -> list[tuple[tuple[int, ...], int]]:
    """(board, player to move) of random positions, the finished ones and both sides included."""
    rng = random.Random(seed)
    out = []
    starts = [GAME.initial_state()] + [GAME.state_from_text(t) for t in END_GAMES]
    while len(out) < count:
        s = rng.choice(starts)
        for _ in range(rng.randrange(0, 160)):
            if s.is_terminal():
                break
            acts = s.legal_actions()
            caps = [a for a in acts if s.captured(a)]
            s = s.apply(rng.choice(caps) if caps and rng.random() < 0.4 else rng.choice(acts))
        out.append((s.board, s.current_player))
    return out


@needs_core
def test_move_lists_checks_and_counts_agree_for_both_sides():
    for board, to_move in sample_boards(1500, seed=3):
        b = list(board)
        for player in (to_move, 1 - to_move):   # the side not to move too: its general may stand attacked
            assert core.legal_moves(board, player) == ref.legal_moves(b, player), (board, player)
            assert core.count_legal(board, player) == ref.count_legal(b, player), (board, player)
            assert core.has_legal_move(board, player) == ref.has_legal_move(b, player), (board, player)
            assert core.in_check(board, player) == ref.in_check(b, player), (board, player)
            actions = sorted(xq._ACTION_OF[player][mv] for mv in ref.legal_moves(b, player))
            assert core.legal_actions(board, player) == actions, (board, player)
        for g in range(90):
            for s in (1, -1):
                assert core.attacked(board, g, s) == ref.attacked(b, g, s), (board, g, s)
        assert b == list(board)


@needs_core
def test_capture_search_agrees_at_every_budget_and_depth():
    for board, player in sample_boards(600, seed=4):
        b = list(board)
        for depth, budget in ((6, 200), (6, 3), (2, 200), (8, 10 ** 6), (0, 200)):
            assert core.capture_gain(board, player, depth, budget) == ref.capture_gain(b, player, depth, budget), \
                (board, player, depth, budget)
        assert core.capture_gain(board, player) == ref.capture_gain(b, player)


@needs_core
def test_encodings_agree_for_every_plane_count_and_both_sides():
    rng = random.Random(6)
    for board, player in sample_boards(500, seed=6):
        for to_move in (player, 1 - player):   # the side not to move's general may stand attacked: no FEN
            clock, repeated = rng.randrange(0, 121), rng.random() < 0.5
            history = (1, 2, 1) if repeated else (1,)

            def encodings(module):
                with rules(module):
                    s = xq.XiangqiState(GAME, board, to_move, clock, ("", to_move, 1), (), 1, history,
                                        (False,) * len(history), False)
                    return [planes(s.encode_planes(n)) for n in (-1, 0, 14, 15, 16, 17, 19, 20, 99)]
            assert encodings(core) == encodings(None), (board, to_move, clock, repeated)


#: what a search asks of a new position, each asked first on a fresh state in one of the tests
#: below: with the compiled core the first of them fills the others from one call (`_fill`)
FIRST_ASKED = {
    "is_terminal": lambda s: s.is_terminal(),
    "legal_actions": lambda s: s.legal_actions(),
    "proven_value": lambda s: s.proven_value(),
    "winning_capture": lambda s: s.winning_capture(),
    "heuristic": lambda s: s.heuristic(1),
    "material": lambda s: s.material(),
}


@needs_core
@pytest.mark.parametrize("first", sorted(FIRST_ASKED))
def test_whatever_is_asked_first_the_answers_are_the_python_rules(first):
    rng = random.Random(9)
    starts = [xq.START_FEN] + END_GAMES + record_positions()[::7]
    for text in starts:
        with rules(None):
            s = GAME.state_from_text(text)
        for _ in range(rng.randrange(0, 120)):
            if s.is_terminal():
                break
            with rules(None):
                s = s.apply(choose(rng, s, s.legal_actions()))
        with rules(core):
            c = GAME.state_from_text(s.to_text())
            FIRST_ASKED[first](c)
            seen_c = observe(c)
        with rules(None):
            p = GAME.state_from_text(s.to_text())
            FIRST_ASKED[first](p)
            seen_p = observe(p)
        assert seen_c == seen_p, (first, s.to_text())


@needs_core
def test_the_leaf_call_gives_what_the_single_calls_give():
    rng = random.Random(10)
    for board, player in sample_boards(800, seed=10):
        b = list(board)
        check = ref.in_check(b, player)
        clock = rng.randrange(0, 121)
        history = (5, 6, 5, 6, 5) if rng.random() < 0.1 else (5,)
        checks = tuple(rng.random() < 0.5 for _ in history)
        result, actions, mate, gain, capture, material = core.leaf(board, player, check, clock, history, checks)
        assert result == core.outcome(board, player, check, clock, history, checks)
        assert material == core.material(board)
        with rules(None):
            s = xq.XiangqiState(GAME, board, player, 0, ("", player, 1), (), 1, (1,), (False,), check)
            assert material == s._count_material(), board
        if result[0]:
            assert (actions, mate, gain, capture) == (b"", False, 0, -1)
            continue
        listed = array("H")
        listed.frombytes(actions)
        assert listed.tolist() == core.legal_actions(board, player)
        assert mate == core.mate_in_one(board, player)
        gain_ref, first = ref.capture_gain(b, player)
        assert gain == gain_ref
        action = xq._ACTION_OF[player].get(first) if first is not None else None
        assert capture == (action if action is not None and action in listed else -1)
        assert b == list(board)


def test_a_child_is_refused_for_what_is_not_a_move():
    if core is None:
        pytest.skip("the compiled xiangqi core is not built here")
    start = GAME.initial_state()
    b, h = start.board, start._hash
    f, t = xq._MOVE_OF[0][start.legal_actions()[0]]
    made = core.child(b, 0, f, t, h, 0, (h,), (False,), (), 0)
    # the board comes back packed (90 signed bytes), which every function of the core reads too
    assert xq._UNPACK_BOARD(made[0]) == start.apply(start.legal_actions()[0]).board
    assert core.child(made[0], 1, *xq._MOVE_OF[1][core.legal_actions(made[0], 1)[0]], made[1], 1, made[3], made[4],
                      made[6], 0)[0] == core.child(xq._UNPACK_BOARD(made[0]), 1,
                                                   *xq._MOVE_OF[1][core.legal_actions(made[0], 1)[0]], made[1], 1,
                                                   made[3], made[4], made[6], 0)[0]
    for bad in (made[0][:89], made[0][:89] + bytes([8]), made[0][:89] + bytes([256 - 8])):   # short; codes 8, -8
        with pytest.raises(ValueError):
            core.legal_actions(bad, 1)
    with pytest.raises(ValueError, match="not a move"):
        core.child(b, 0, t, f, h, 0, (h,), (False,), (), 0)   # an empty square
    with pytest.raises(ValueError, match="not a move"):
        core.child(b, 1, f, t, h, 0, (h,), (False,), (), 0)   # Red's piece, Black to move
    with pytest.raises(ValueError, match="not a move"):
        core.child(b, 0, 0, 1, h, 0, (h,), (False,), (), 0)   # onto its own piece
    with pytest.raises(ValueError):
        core.child(b, 0, f, 90, h, 0, (h,), (False,), (), 0)
    with pytest.raises(ValueError):
        core.child(b, 0, f, t, h, 0, (h, h), (False,), (), 0)
    with pytest.raises(ValueError):
        core.child(b, 0, f, t, h, 0, (), (), (), 0)
    with pytest.raises(TypeError):
        core.child(b, 0, f, t, h, 0, [h], [False], (), 0)
    with pytest.raises(ValueError):
        core.set_zobrist([1, 2, 3], 0)
    with pytest.raises(TypeError):
        core.set_zobrist(["a"] * 1350, 0)
    assert core.child(b, 0, f, t, h, 0, (h,), (False,), (), 0) == made   # the keys a refused call left as they were
    assert core.child(b, 0, f, t, h, 0, (h,), (False,), None, 0)[6] is None   # moves kept by the caller
    with pytest.raises(TypeError):
        core.child(b, 0, f, t, h, 0, (h,), (False,), [], 0)
    # tuples of ints only are left to reference counting (no cycle to find); others are tracked
    assert not any(gc.is_tracked(x) for x in made[:7] if isinstance(x, tuple))
    assert gc.is_tracked(core.child(b, 0, f, t, h, 0, (h,), (False,), ("x",), 0)[6])


def test_the_leaf_call_refuses_bad_input():
    if core is None:
        pytest.skip("the compiled xiangqi core is not built here")
    start = GAME.initial_state()
    with pytest.raises(ValueError):
        core.leaf(start.board[:89], 0, False, 0, (1,), (False,))
    with pytest.raises(ValueError):
        core.leaf(start.board, 2, False, 0, (1,), (False,))
    with pytest.raises(ValueError):
        core.leaf(start.board, 0, False, 0, (), ())
    with pytest.raises(ValueError):
        core.leaf(start.board, 0, False, 0, (1, 2), (False,))
    with pytest.raises(TypeError):
        core.leaf(start.board, 0, False, 0, [1], [False])
    with pytest.raises(ValueError):
        core.material((9,) * 90)


@needs_core
def test_the_batch_encoder_writes_what_stacking_the_encodings_gives():
    import numpy as np
    rng = random.Random(11)
    boards = sample_boards(300, seed=11)
    for start in range(0, len(boards), 30):
        states = []
        for board, player in boards[start:start + 30]:
            clock, repeated = rng.randrange(0, 121), rng.random() < 0.5
            history = (1, 2, 1) if repeated else (1,)
            states.append(xq.XiangqiState(GAME, board, player, clock, ("", player, 1), (), 1, history,
                                          (False,) * len(history), False))
        for count in (None, -1, 0, 3, 14, 16, 17, 20, 99):
            with rules(None):
                want = np.stack([s.encode() if count is None else s.encode_planes(count) for s in states])
            with rules(core):
                got = xq.XiangqiState.encode_batch(states, count)
            assert got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes(), count


@needs_core
def test_the_batch_encoder_refuses_a_buffer_it_cannot_fill():
    import numpy as np
    start = GAME.initial_state()
    fine = np.zeros((2, 20, 10, 9), np.float32)
    core.encode_states(fine, [start], 20)
    assert fine[0].any() and not fine[1].any()
    for out, states, message in ((fine, [start] * 3, "do not fit"), (np.zeros((2, 20, 10, 9), np.float64), [start], "float32"),
                                 (np.zeros((1, 19, 10, 9), np.float32), [start], "do not fit")):
        with pytest.raises(ValueError, match=message):
            core.encode_states(out, states, 20)
    with pytest.raises((TypeError, ValueError, BufferError)):   # not C-contiguous
        core.encode_states(np.zeros((2, 40, 10, 9), np.float32)[:, ::2], [start], 20)
    frozen = np.zeros((1, 20, 10, 9), np.float32)
    frozen.flags.writeable = False
    with pytest.raises((TypeError, ValueError, BufferError)):
        core.encode_states(frozen, [start], 20)
    with pytest.raises((TypeError, BufferError)):
        core.encode_states(bytes(7200), [start], 20)
    with pytest.raises(AttributeError):
        core.encode_states(fine, [start, "not a state"], 20)
    with pytest.raises(TypeError):
        core.encode_states(fine, (start,), 20)


@needs_core
def test_made_moves_give_the_same_board_capture_and_check():
    for board, player in sample_boards(400, seed=5):
        for f, t in ref.legal_moves(list(board), player):
            b = list(board)
            q = b[t]
            b[t], b[f] = b[f], 0
            assert core.make_move(board, f, t) == (tuple(b), q, ref.in_check(b, 1 - player)), (board, f, t)


@needs_core
def test_perft_to_depth_3_agrees_on_several_positions():
    texts = [xq.START_FEN] + END_GAMES + record_positions()[-4:]
    positions = [GAME.state_from_text(t) for t in texts]
    positions += [GAME.state_from_text(xq.START_FEN.replace(" w ", " b "))]
    for s in positions:
        assert core.perft(s.board, s.current_player, 3) == ref.perft_counts(s.board, s.current_player, 3), s.to_text()


@needs_core
@pytest.mark.parametrize("call, message", [
    (lambda: core.legal_moves((0,) * 89, 0), "90 squares"),
    (lambda: core.legal_moves((8,) + (0,) * 89, 0), "piece code"),
    (lambda: core.legal_moves(("k",) + (0,) * 89, 0), "integer"),
    (lambda: core.legal_moves(None, 0), "sequence"),
    (lambda: core.legal_moves((0,) * 90, 2), "player"),
    (lambda: core.attacked((0,) * 90, 90, 1), "square"),
    (lambda: core.attacked((0,) * 90, 4, 0), "sign"),
    (lambda: core.make_move((0,) * 90, 4, 13), "no piece"),
    (lambda: core.perft((0,) * 90, 0, 65), "depth"),
    (lambda: core.outcome((0,) * 90, 0, False, 0, (), ()), "history"),
    (lambda: core.outcome((0,) * 90, 0, False, 0, (1, 2), (False,)), "history"),
    (lambda: core.outcome((0,) * 90, 0, False, 0, ("x",), (False,)), "integer"),
])
def test_bad_input_is_refused_with_the_reason(call, message):
    with pytest.raises((ValueError, TypeError), match=message):
        call()


@needs_core
def test_a_long_history_is_judged_as_the_python_judges_it():
    board = GAME.initial_state().board
    for history, checks in (((7,) * 300, (True, False) * 150), (tuple(range(299)) + (5,), (False,) * 300),
                            ((1, 2) * 150 + (1,), (False,) * 301)):
        with rules(core):
            c = xq.XiangqiState(GAME, board, 0, 10, ("", 0, 1), (), history[-1], history, checks, False)
            compiled = (c.is_terminal(), c.winner(), c.end_reason())
        with rules(None):
            p = xq.XiangqiState(GAME, board, 0, 10, ("", 0, 1), (), history[-1], history, checks, False)
            python = (p.is_terminal(), p.winner(), p.end_reason())
        assert compiled == python


@needs_core
def test_a_board_without_generals_has_no_moves_and_no_check():
    empty = (0,) * 90
    assert core.legal_moves(empty, 0) == [] and core.count_legal(empty, 1) == 0
    assert not core.in_check(empty, 0) and not core.has_legal_move(empty, 0) and not core.mate_in_one(empty, 0)
    assert core.perft(empty, 0, 2) == [0, 0] and core.perft(empty, 0, -1) == []


# --- which path runs, and the fallback -------------------------------------------------------
PERFT_3 = "import games.xiangqi as x; from games import get_game; " \
          "print(x._core is None, get_game('xiangqi').initial_state().perft_counts(3))"
PERFT_3_COUNTS = "[44, 1920, 79666]"


def test_the_switch_forces_the_python_rules_and_says_so_in_one_line():
    check_forced_python(PERFT_3, PERFT_3_COUNTS)


def test_without_the_compiled_module_the_python_rules_run_and_say_so():
    # as on a machine without a C compiler: the extension module cannot be found
    check_unbuilt("games._xiangqi_c", PERFT_3, PERFT_3_COUNTS, "xiangqi rules")


@needs_core
def test_the_compiled_core_runs_silently_when_built():
    check_silent(PERFT_3, PERFT_3_COUNTS)


def test_a_build_from_other_sources_is_refused(monkeypatch, capsys):
    check_stale_refused("games._xiangqi_c", "xiangqi", monkeypatch, capsys)


@pytest.mark.parametrize("value, forced", [("1", True), ("yes", True), ("0", False), ("", False), ("false", False)])
def test_the_switch_reads_like_a_flag(monkeypatch, value, forced):
    monkeypatch.setenv(native.PURE_ENV, value)
    assert native.pure_python_forced() is forced


@needs_core
def test_a_search_nodes_moves_are_its_parents_and_one_more():
    """A node made by `apply_nth` keeps its parent and action rather than a tuple of every action
    played; `moves` (and what reads it: `to_text`, `fen`, the chase rule) is the same as `apply`'s."""
    rng = random.Random(7)
    with rules(core):
        start = GAME.state_from_text(xq.START_FEN + " moves h2e2 h9g7")
        made, applied = start, start
        for _ in range(30):
            if made.is_terminal():
                break
            j = rng.randrange(len(made.legal_actions()))
            made, applied = made.apply_nth(j), applied.apply(applied.legal_actions()[j])
        assert made._moves is None and made._up is not None
        assert made.to_text() == applied.to_text() and made.fen() == applied.fen()
        assert made.moves == applied.moves and made._up is None   # asked once, then held
        assert len(made.moves) == len(start.moves) + 30
