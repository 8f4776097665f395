"""Swap2 and plain swap (Swap1), gomoku's opening rules: the exchange itself (`games.swap2`), the
AI's decisions (`engine.play.swap2`), a game against the AI through it (`gui.opening`), with and
without clocks, the Gomocup brain's SWAP2BOARD (and the client's), and records that keep the
opening."""
from __future__ import annotations

import os
import random
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from engine.play import swap2 as decide
from engine.play.swap2 import Verdict
from games import get_game
from games.records import read_record, write_record
from games.swap2 import CHOOSE3, CHOOSE5, PLACE2, PLACE3, PLAYING, Swap2, Swap2Error
from test_gui_support import app_factory  # noqa: F401 (a fixture)

RULES = ("freestyle", "standard", "renju")


def stones(game, *names):
    return [game.state_from_text(n).moves[0] for n in names]


# --- the exchange -------------------------------------------------------------------------------

@pytest.mark.parametrize("rule", RULES)
def test_each_choice_settles_the_colours_and_who_moves_next(rule):
    g = get_game("gomoku", rule=rule)
    three = stones(g, "h8", "i9", "g10")
    for choice, black_seat, stage_after in (("white", 0, PLAYING), ("black", 1, PLAYING), ("two", None, PLACE2)):
        op = Swap2.start(g)
        assert op.stage == PLACE3 and op.chooser == 0
        for a in three:
            op.place(a)
        assert op.stage == CHOOSE3 and op.chooser == 1 and op.state.current_player == 1
        op.choose(choice)
        assert op.stage == stage_after and op.black_seat == black_seat
        if choice != "two":
            # white moves next: the second player when it stayed white, the first when it swapped
            assert op.chooser == (1 if choice == "white" else 0)
            op.play(stones(g, "j11")[0])
            assert op.chooser == (0 if choice == "white" else 1) and op.summary() == f"swap2 {choice}"
    for last, black_seat in (("white", 1), ("black", 0)):
        op = Swap2.start(g)
        for a in three:
            op.place(a)
        op.choose("two")
        assert op.chooser == 1
        op.place(stones(g, "e5")[0])
        op.place(stones(g, "k3")[0])
        assert op.stage == CHOOSE5 and op.chooser == 0 and op.state.current_player == 1
        op.choose(last)
        assert op.black_seat == black_seat and op.opening_stones == 5 and op.summary() == f"swap2 two {last}"


def test_the_exchange_refuses_what_its_stage_does_not_allow():
    g = get_game("gomoku")
    op = Swap2.start(g)
    with pytest.raises(Swap2Error):
        op.choose("white")
    with pytest.raises(Swap2Error):
        op.play(0)
    op.place(112)
    with pytest.raises(Swap2Error):
        op.place(112)              # taken
    op.place(113)
    op.place(114)
    with pytest.raises(Swap2Error):
        op.place(115)              # three stones, then the choice
    with pytest.raises(Swap2Error):
        op.choose("purple")
    op.choose("two")
    op.place(0)
    op.place(1)
    with pytest.raises(Swap2Error, match="choose white, black"):
        op.choose("two")           # only once
    with pytest.raises(Swap2Error):
        Swap2.replay(g, [112, 113, 114, 0], "swap2")        # a fourth stone with no choice made
    with pytest.raises(Swap2Error):
        Swap2.replay(g, [112, 113, 114], "not an opening")


def test_plain_swap_offers_white_or_black_after_three_stones_and_nothing_more():
    g = get_game("gomoku", rule="renju")
    three = stones(g, "h8", "i9", "g10")
    for choice, black_seat in (("white", 0), ("black", 1)):
        op = Swap2.start(g, "swap1")
        for a in three:
            op.place(a)
        assert op.stage == CHOOSE3 and op.chooser == 1 and op.allowed == ("white", "black")
        op.choose(choice)
        assert op.stage == PLAYING and op.black_seat == black_seat and op.opening_stones == 3
        assert op.summary() == f"swap1 {choice}"
        op.play(stones(g, "j11")[0])
        back = Swap2.replay(g, op.state.moves, op.summary())
        assert back.rule == "swap1" and back.black_seat == black_seat and back.stage == PLAYING
    op = Swap2.start(g, "swap1")
    for a in three:
        op.place(a)
    with pytest.raises(Swap2Error, match="choose white, black"):
        op.choose("two")
    with pytest.raises(Swap2Error):
        Swap2.replay(g, g.state_from_text("h8 i9 g10 j5 f4").moves, "swap1 two white")
    with pytest.raises(Swap2Error):
        Swap2.start(g, "swap3")


def test_an_opening_stone_black_may_not_place_under_renju_is_refused():
    g = get_game("gomoku", rule="renju")
    op = Swap2.start(g)
    for a in stones(g, "h8", "a1", "h9"):
        op.place(a)
    op.choose("two")
    op.place(stones(g, "a2")[0])
    # black's fifth stone must be legal like any move of black's (renju's forbidden points apply)
    with pytest.raises(Swap2Error):
        op.place(stones(g, "h8")[0])


# --- the AI's decisions, with a stand-in judge ---------------------------------------------------

def judge_from(values: dict, default: float = 0.0):
    """A judge whose values (for the side to move) come from ``values`` by the moves' count, its
    best move the first legal one and its top moves the first legal ones with values 0.5, 0.2, -0.05."""
    def judge(state):
        legal = state.legal_actions()
        return Verdict(values.get(len(state.moves), default), legal[0], list(zip(legal[:3], (0.5, 0.2, -0.05))))
    return judge


def test_the_ai_proposes_the_most_balanced_opening():
    g = get_game("gomoku")
    candidates = decide.candidate_openings(g)
    assert len(candidates) == len(decide.OPENINGS) >= 5
    worth = {tuple(c): 0.3 + 0.1 * i for i, c in enumerate(candidates)}
    worth[tuple(candidates[4])] = -0.02          # the most balanced
    chosen, values = decide.propose_opening(g, lambda s: Verdict(worth[tuple(s.moves)]), random.Random(0))
    assert chosen == candidates[4] and len(values) == len(candidates)
    small = get_game("gomoku", size=7)         # openings that do not fit are left out
    assert 0 < len(decide.candidate_openings(small)) < len(candidates)


def test_the_ai_chooses_by_its_evaluation_for_each_colour():
    g = get_game("gomoku")
    three = g.state_from_text("h8 i9 g10")
    first = three.legal_actions()[0]
    assert decide.choose_after_three(three, judge_from({3: 0.5})) == ("white", [first])
    assert decide.choose_after_three(three, judge_from({3: -0.5})) == ("black", [])
    # balanced: two more stones, the fifth the black move whose value is nearest 0
    kind, (fourth, fifth) = decide.choose_after_three(three, judge_from({3: 0.05}))
    after = three.apply(fourth)
    assert kind == "two" and fourth == first and fifth == after.legal_actions()[2]
    five = g.state_from_text("h8 i9 g10 a1 o15")
    assert decide.choose_after_five(five, judge_from({5: 0.1})) == ("white", [five.legal_actions()[0]])
    assert decide.choose_after_five(five, judge_from({5: -0.1})) == ("black", [])


def test_under_plain_swap_the_ai_takes_the_colour_the_position_favours():
    g = get_game("gomoku")
    three = g.state_from_text("h8 i9 g10")
    first = three.legal_actions()[0]
    # balanced positions, where Swap2 would place two more: the colour the value leans to
    assert decide.choose_after_three(three, judge_from({3: 0.05}), "swap1") == ("white", [first])
    assert decide.choose_after_three(three, judge_from({3: -0.05}), "swap1") == ("black", [])
    assert decide.choose_after_three(three, judge_from({3: 0.5}), "swap1") == ("white", [first])


# --- a game against the AI through the exchange, headless ---------------------------------------

class ScriptedAI:
    """The AI client's interface in-process: searches are answered when the test says (`answer`),
    with ``value_of(state)`` for the side to move, the first legal move as the best and the first
    legal moves as the top ones (values 0.5, 0.2, -0.05)."""

    status = "ready"
    message = ""

    def __init__(self, value_of):
        self.value_of = value_of
        self.queue = []
        self.asked = []
        self.clocks = []   # (stones on the board, the request's clock) of each search asked
        self.next_id = 0

    def search(self, state, level, model_path, session, callback, extras=False, clock=None):
        self.next_id += 1
        self.queue.append((self.next_id, state, callback))
        self.asked.append((level, tuple(state.moves)))
        self.clocks.append((len(state.moves), clock))
        return self.next_id

    def prepare(self, state, level, model_path, session, callback):
        return None   # nothing to load: prepared at once

    def cancel(self, rid):
        self.queue = [q for q in self.queue if q[0] != rid]

    def answer(self):
        while self.queue:
            rid, state, callback = self.queue.pop(0)
            legal = state.legal_actions()
            top = [{"action": a, "visits": 10 - i, "q": q} for i, (a, q) in enumerate(zip(legal, (0.5, 0.2, -0.05)))]
            callback({"id": rid, "type": "result", "action": legal[0], "value": self.value_of(state), "top": top})


def session(value_of, seat, rule="standard", size=9, opening="swap2", time_control=None):
    from gui import session as gui_session
    from gui.opening import Swap2PlayController
    gui_session.AI_MIN_SHOW_SECONDS = 0.0
    ai = ScriptedAI(value_of)
    c = Swap2PlayController(ai, get_game("gomoku", rule=rule, size=size), seat, "strong", seed=1,
                            rule=opening, time_control=time_control)
    c.analysis_on = False
    return c, ai


def pump(c, ai, rounds=20):
    for _ in range(rounds):
        c.update()
        ai.answer()
        c.update()


def play_through(c, ai):
    """The rest of the game: the person plays the first legal move, the AI answers."""
    for _ in range(c.game.cells):
        if c.over:
            return
        if c.human_to_move:
            assert c.play(c.state.legal_actions()[0])
        pump(c, ai, 2)
    assert c.over


@pytest.mark.parametrize("choice", ["white", "black", "two"])
def test_a_swap2_game_plays_through_with_the_person_choosing(choice):
    c, ai = session(lambda s: 0.3 if len(s.moves) == 5 else 0.0, seat=1)
    assert c.in_opening and not c.person_choices
    pump(c, ai)
    assert len(c.state.moves) == 3 and c.person_choices == ("white", "black", "two")
    assert len(ai.asked) == len(decide.candidate_openings(c.game)) and ai.asked[0][0] == "medium"
    assert not c.play(c.state.legal_actions()[0])             # a choice is due, not a stone
    assert c.choose(choice) and not c.choose(choice)
    if choice == "two":
        assert c.person_places
        for _ in range(2):
            assert c.play(c.state.legal_actions()[-1])
        pump(c, ai)
        # the AI (first player) finds white worth 0.3: it takes white and plays the sixth stone
        assert not c.in_opening and c.opening.summary() == "swap2 two white" and c.human == 0
        assert len(c.state.moves) == 6
    else:
        assert not c.in_opening and c.human == (1 if choice == "white" else 0)
    play_through(c, ai)
    assert c.analysis_meta()["opening"].startswith(f"swap2 {choice}")


@pytest.mark.parametrize("value,choice", [(0.5, "white"), (-0.5, "black"), (0.0, "two")])
def test_a_swap2_game_plays_through_with_the_ai_choosing(value, choice):
    c, ai = session(lambda s: value if len(s.moves) == 3 else -0.2, seat=0, rule="renju")
    assert c.person_places and c.human == 0
    for name in ("e5", "f6", "d7"):
        assert c.play(c.state.parse_action(name))
    pump(c, ai)
    assert c.opening.choices[0] == choice
    if choice == "two":
        assert len(c.state.moves) == 5 and c.person_choices == ("white", "black")
        assert c.choose("black") and c.human == 0 and c.opening.summary() == "swap2 two black"
    elif choice == "white":
        assert c.human == 0 and len(c.state.moves) == 4      # the AI stayed white and played the fourth
    else:
        assert c.human == 1 and c.human_to_move                # the AI took black: the person plays white
    undone = c.undo()
    assert len(c.state.moves) >= c.opening.opening_stones, undone
    play_through(c, ai)
    c.load(c.game.state_from_text("e5 d4"))      # a position loaded into the game: played on plainly
    assert not c.in_opening and "opening" not in c.analysis_meta() and c.human == 0
    c.new_game(1)
    assert c.in_opening and c.seat == 1 and len(c.state.moves) == 0


@pytest.mark.parametrize("value,choice", [(0.05, "white"), (-0.05, "black")])
def test_a_plain_swap_game_plays_through_with_the_ai_choosing(value, choice):
    c, ai = session(lambda s: value if len(s.moves) == 3 else -0.2, seat=0, opening="swap1")
    for name in ("e5", "f6", "d7"):
        assert c.play(c.state.parse_action(name))
    pump(c, ai)
    assert not c.in_opening and c.opening.summary() == f"swap1 {choice}"
    assert c.human == (0 if choice == "white" else 1) and len(c.state.moves) == (4 if choice == "white" else 3)
    play_through(c, ai)
    assert c.analysis_meta()["opening"] == f"swap1 {choice}"


def test_a_plain_swap_game_asks_the_person_for_white_or_black_only():
    c, ai = session(lambda s: 0.0, seat=1, opening="swap1")
    pump(c, ai)
    assert len(c.state.moves) == 3 and c.person_choices == ("white", "black")
    assert not c.choose("two") and c.choose("white") and c.human == 1 and c.human_to_move
    play_through(c, ai)
    assert c.analysis_meta()["opening"] == "swap1 white"


class FakeTime:
    """`time.monotonic` as the test moves it on."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("seat,opening", [(1, "swap2"), (0, "swap2"), (0, "swap1")])
def test_a_game_under_a_clock_starts_the_clocks_when_the_colours_are_settled(monkeypatch, seat, opening):
    """The exchange (stones, judgements, choices) uses neither clock and earns no increment; the
    side to move once the colours are settled (white, for its fourth stone) is the first clock
    to run, the AI's stone then searched on its clock."""
    import time
    from engine.play.clock import parse_control
    fake = FakeTime()
    monkeypatch.setattr(time, "monotonic", fake)
    # seat 1: the AI proposes, the person takes black; seat 0: the person proposes, the AI stays white
    c, ai = session(lambda s: 0.5 if len(s.moves) == 3 else 0.0, seat=seat, opening=opening,
                    time_control=parse_control("60+5"))

    def wait(seconds):
        fake.now += seconds
        c.update()
    if seat == 1:
        for _ in range(20):            # the AI judges its candidate openings, 10 s each
            c.update()
            wait(10)
            ai.answer()
        assert c.person_choices
        wait(30)                       # the person thinks over the choice
        assert c.choose("black")
    else:
        for name in ("e5", "f6", "d7"):
            wait(20)                   # the person thinks over each opening stone
            assert c.play(c.state.parse_action(name))
        c.update()
        wait(10)                       # the AI judges the three stones
        ai.answer()
        c.update()
    assert not c.in_opening and len(c.state.moves) == 3 and c.human == 0
    assert c.clock.left == [60.0, 60.0]                   # no time spent, no increment added
    assert all(clock is None for n, clock in ai.clocks if n < 3)   # the opening's judgements: no clock
    c.update()
    assert c.clock.running == 1                           # white's (the AI's) clock runs first
    assert ai.clocks[-1][0] == 3 and ai.clocks[-1][1]["remaining"] == 60.0   # its 4th stone, on its clock
    wait(3)
    ai.answer()
    c.update()
    assert len(c.state.moves) == 4 and c.clock.running == 0 and c.clock.left[1] == pytest.approx(62.0)
    wait(4)
    assert c.play(c.state.legal_actions()[0])
    assert c.clock.left[0] == pytest.approx(61.0) and c.clock.running == 1
    meta = c.clock_meta()
    assert meta["time_control"] == "60+5" and meta["clocks"]


def test_records_keep_the_opening_and_who_took_which_colour():
    g = get_game("gomoku", rule="renju")
    op = Swap2.replay(g, g.state_from_text("h8 i9 g10 j5 f4 k11").moves, "swap2 two white")
    assert op.black_seat == 1 and op.stage == PLAYING
    meta = {"first_player": "Alice", "second_player": "ZeroBoard strong", "opening": op.summary()}
    for fmt in ("sgf", "zeroboard"):
        text = write_record(op.state, fmt, meta)
        back = read_record(text, g)
        assert back.meta["opening"] == "swap2 two white", fmt
        assert back.state.moves == op.state.moves and back.state.game is g
        assert back.meta["first_player"] == "Alice" and back.meta["second_player"] == "ZeroBoard strong"
        assert Swap2.replay(g, back.state.moves, back.meta["opening"]).black_seat == 1
    assert "ON[swap2 two white]" in write_record(op.state, "sgf", meta)
    plain = Swap2.replay(g, g.state_from_text("h8 i9 g10 j5").moves, "swap1 black")
    for fmt in ("sgf", "zeroboard"):
        back = read_record(write_record(plain.state, fmt, {**meta, "opening": plain.summary()}), g)
        assert back.meta["opening"] == "swap1 black", fmt
        assert Swap2.replay(g, back.state.moves, back.meta["opening"]).black_seat == 1
    # an opening named by another program, or one that does not fit the moves, is left out
    sgf = write_record(op.state, "sgf", meta)
    assert "opening" not in read_record(sgf.replace("ON[swap2 two white]", "ON[Sure Win]"), g).meta
    assert "opening" not in read_record(sgf.replace("ON[swap2 two white]", "ON[swap2]"), g).meta


# --- the Gomocup brain and client ------------------------------------------------------------------

def brain_lines(brain, *lines):
    out = []
    for line in lines:
        brain.handle_line(line, out.append)
    return [o for o in out if not o.startswith("DEBUG")]


def scripted_brain(monkeypatch, values: dict):
    """A brain whose judge is a stand-in (values by the number of stones, for the side to move)."""
    from engine.protocols.gomocup import GomocupBrain
    brain = GomocupBrain(model_path="rollout", seed=0)
    monkeypatch.setattr(brain, "_judge", lambda calls: (judge_from(values), []))
    assert brain_lines(brain, "START 15") == ["OK"]
    return brain


def test_the_brain_answers_each_swap2board_stage(monkeypatch):
    brain = scripted_brain(monkeypatch, {3: 0.0, 4: 0.0})
    reply = brain_lines(brain, "SWAP2BOARD", "DONE")
    assert re.fullmatch(r"\d+,\d+ \d+,\d+ \d+,\d+", reply[0]) and len(reply) == 1
    assert [brain._point(p, None, "") for p in reply[0].split()] in decide.candidate_openings(brain.game)
    three = ["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]
    # balanced: two more stones (x,y x,y); x,y,who lines (BOARD's form) are taken too
    two = brain_lines(brain, "SWAP2BOARD", "7,7,2", "8,7,1", "9,9,2", "DONE")[0]
    assert re.fullmatch(r"\d+,\d+ \d+,\d+", two) and len(brain.state.moves) == 5
    brain = scripted_brain(monkeypatch, {3: 0.6})
    assert brain_lines(brain, *three) == ["0,0"] and brain.me == 1     # stays white: the fourth stone
    brain = scripted_brain(monkeypatch, {3: -0.6})
    assert brain_lines(brain, *three) == ["SWAP"] and brain.me == 0
    five = ["SWAP2BOARD", "7,7", "8,7", "9,9", "8,8", "8,6", "DONE"]
    brain = scripted_brain(monkeypatch, {5: 0.2})
    assert brain_lines(brain, *five) == ["0,0"] and brain.me == 1
    brain = scripted_brain(monkeypatch, {5: -0.2})
    assert brain_lines(brain, *five) == ["SWAP"] and brain.me == 0
    # what does not fit is refused, and the brain keeps going
    for bad in (["SWAP2BOARD", "7,7", "DONE"], ["SWAP2BOARD", "7,7", "7,7", "1,1", "DONE"],
                ["SWAP2BOARD", "7,7", "8,7", "99,9", "DONE"], ["SWAP2BOARD", "x", "DONE"]):
        assert brain_lines(brain, *bad)[0].startswith("ERROR"), bad
    assert brain_lines(brain, "SWAP2BOARD", "DONE")[0].count(",") == 3


def test_the_client_and_our_brain_run_a_swap2_exchange_over_pipes():
    import sys
    from pathlib import Path
    from engine.protocols.gomocup_client import GomocupBrainPlayer
    main = [sys.executable, str(Path(__file__).resolve().parent.parent / "main.py")]
    g = get_game("gomoku", rule="standard", size=9)
    with GomocupBrainPlayer(g, [*main, "pbrain", "--model", "rollout"], {"nodes": 8}, keep_transcript=True) as p:
        kind, three = p.swap2(g.initial_state())
        assert kind == "place" and len(three) == 3
        s = g.initial_state()
        for a in three:
            s = s.play(a)
        kind, more = p.swap2(s)
        assert (kind, len(more)) in (("black", 0), ("white", 1), ("two", 2))
        five = g.state_from_text("e5 d4 f6 a1 i9")
        kind, sixth = p.swap2(five)
        assert (kind, len(sixth)) in (("black", 0), ("white", 1))
        assert p.choose(five).action in five.legal_actions()   # the game goes on with BOARD
        assert "> SWAP2BOARD" in p.process.transcript


# --- in the app -----------------------------------------------------------------------------------

def test_the_app_runs_a_swap2_opening_with_the_ai_process_and_the_persons_buttons(app_factory):
    import pygame
    from test_gui_support import click, run_until
    from gui.opening import Swap2PlayController
    from gui.scenes.setup import SetupScene
    app = app_factory()
    setup = SetupScene(app, "gomoku")
    app.goto(setup)
    app.step()
    assert "Swap2" in [b.label for b in app.scene.buttons]
    setup.opening, setup.side, setup.level = "swap2", "second", "beginner"
    setup.start()
    c = app.scene.c
    assert isinstance(c, Swap2PlayController) and c.seat == 1
    # the AI process judges its candidate openings, places one, and the person is asked
    assert run_until(app, lambda: app.scene.confirm is not None)
    assert len(c.state.moves) == 3 and c.person_choices == ("white", "black", "two")
    black = [b for b in app.scene.confirm.buttons if b.label == "Play black"][0]
    click(app, black.rect.center)
    assert not c.in_opening and c.human == 0 and c.opening.summary() == "swap2 black"
    # white (the AI) plays the fourth stone, then it is the person's move as black
    assert run_until(app, lambda: len(c.state.moves) == 4 and c.human_to_move)
    assert app.scene.confirm is None


@pytest.mark.parametrize("opening", ["swap1", "swap2"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(800, 560), (1024, 640)])
def test_the_setup_offers_swap_and_swap2_with_every_clock_and_says_when_the_clocks_start(
        tmp_path, monkeypatch, lang, size, opening):
    from engine.play.clock import TimeControl
    from gui.i18n import t
    from gui.opening import Swap2PlayController
    from gui.scenes.setup import clock_choices, clock_label
    from test_gui_layout import drawn_texts
    from test_gui_support import make_app
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.set_language(lang)
        app.open_setup("gomoku", "play")
        scene = app.scene
        scene.opening = opening
        scene._set_clock("180+2")
        app.step((), 0.02, draw=True)
        labels = {b.label for b in scene.buttons if hasattr(b, "label")}
        assert {t("setup.opening_free"), t("swap1.name"), t("swap2.name")} <= labels
        assert {clock_label(c) for c in clock_choices("gomoku")} <= labels   # every clock, as for a free game
        texts = [(s, r) for s, r in drawn_texts(app, monkeypatch) if s.strip() and r.width and r.height]
        joined = "".join(s for s, _ in texts).replace(" ", "")
        for key in (f"{opening}.note", "swap.clock_note"):
            assert t(key).replace(" ", "") in joined, key
        for i, (s, r) in enumerate(texts):
            for s2, r2 in texts[i + 1:]:
                inner = r.clip(r2)
                assert inner.width < 3 or inner.height <= 4, (s, r, s2, r2)
        scene.start()
        c = app.scene.c
        assert isinstance(c, Swap2PlayController) and c.rule == opening
        assert c.clock.control == TimeControl(180, 2) and c.clock.running is None
    finally:
        app.shutdown()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_plain_swap_choice_asks_white_or_black_and_speaks_of_the_fourth_stone(app_factory, lang):
    from gui.i18n import t
    app = app_factory(ai_enabled=False)
    app.set_language(lang)
    app.start_play("gomoku", "second", "strong", opening="swap1")
    c = app.scene.c
    for name in ("h8", "i9", "g10"):   # the AI's three stones, placed by the test (the AI is off)
        action = c.state.parse_action(name)
        c.opening.place(action)
        c._push(action, by_ai=True, timed=False)
    c.error = ""
    app.step()
    dialog = app.scene.confirm
    assert dialog is not None and dialog.title == t("swap1.choose_title") and dialog.text == t("swap1.choose3_text")
    assert [b.label for b in dialog.buttons] == [t("swap2.white"), t("swap2.black"), t("swap2.later")]
    assert "sixth" not in t("swap1.choose3_text") and "第六" not in t("swap1.choose3_text")
