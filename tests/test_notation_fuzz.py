"""Property-based fuzz of every game's notation parsers: any text gives a legal result or the
game's NotationError (which says where the fault is), never another exception."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAME_IDS, NotationError, get_game

# characters the parsers care about (coordinates, FEN letters, WXF marks, Chinese numerals and
# piece names, fullwidth digits), so random strings reach deep into them
NOTATION_CHARS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 /-+.=:,;#()\t\n"
                  "０１２３４５６７８９一二三四五六七八九帅仕相马车炮兵将士象卒进退平前后中²٣")
_TOKEN = st.text(alphabet=NOTATION_CHARS, max_size=12)
_TEXT = st.one_of(
    st.text(alphabet=NOTATION_CHARS, max_size=60),
    st.lists(_TOKEN, max_size=8).map(" ".join),
    st.text(max_size=40),  # anything unicode has
    # coordinate-shaped moves with odd ranks (leading zeros, many digits, letters off the board)
    st.from_regex(r"[a-zA-Z][0-9]{1,4}-?[a-zA-Z][0-9]{1,4}", fullmatch=True),
    st.from_regex(r"[a-z][0-9]{1,3}( [a-z][0-9]{1,3}){0,4}", fullmatch=True),
)
FUZZ = settings(max_examples=250, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# the games' sample positions in their own notation, so mutations start from real text
SAMPLES = {
    "tictactoe": "b2 a1 c3",
    "connect2": "21",
    "connect4": "4453",
    "othello": "f5d6c3d3c4",
    "gomoku": "h8 h9 i8",
    "xiangqi": "startpos moves h2e2 h9g7",
}


def _midgame(game):
    return game.state_from_text(SAMPLES[game.id])


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(text=_TEXT)
def test_a_position_text_is_read_or_refused_with_the_notation_error(game_id, text):
    game = get_game(game_id)
    try:
        state = game.state_from_text(text)
    except NotationError as e:
        assert str(e).strip(), "the error says what is wrong"
        return
    assert game.state_from_text(state.to_text()).to_text() == state.to_text()


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(text=_TEXT)
def test_a_move_text_is_a_legal_move_or_the_notation_error(game_id, text):
    game = get_game(game_id)
    for state in (game.initial_state(), _midgame(game)):
        try:
            action = state.parse_action(text)
        except NotationError as e:
            assert str(e).strip()
            continue
        assert action in state.legal_actions()


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(cut=st.integers(0, 60), insert=_TOKEN)
def test_a_damaged_sample_position_is_read_or_refused(game_id, cut, insert):
    game = get_game(game_id)
    text = SAMPLES[game_id]
    cut = min(cut, len(text))
    try:
        game.state_from_text(text[:cut] + insert + text[cut:])
    except NotationError:
        pass


@pytest.mark.parametrize("text", ["g06g5", "h02e2", "h2e02", "a" + "0" * 5000 + "b1", "h2" + "9" * 5000 + "e2"],
                         ids=["g06g5", "h02e2", "h2e02", "zeros", "nines"])
def test_xiangqi_coordinates_with_extra_digits_are_notation_errors_that_say_where(text):
    state = get_game("xiangqi").initial_state()
    with pytest.raises(NotationError) as info:
        state.parse_action(text)
    assert "character" in str(info.value)
    assert len(str(info.value)) < 300, "a huge input is not echoed whole"
    with pytest.raises(NotationError):
        get_game("xiangqi").state_from_text("startpos moves " + text)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("text", ["a" + "1" * 5000, "1" * 5000, "b" + "0" * 5000 + "1", "h2" + "9" * 5000 + "e2",
                                  "c" + "٣" * 5000], ids=["letter-ones", "ones", "zeros", "iccs-nines", "arabic"])
def test_coordinates_of_thousands_of_digits_are_notation_errors_with_short_messages(game_id, text):
    game = get_game(game_id)
    with pytest.raises(NotationError) as info:
        game.initial_state().parse_action(text)
    assert len(str(info.value)) < 300
    with pytest.raises(NotationError):
        game.state_from_text(text)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("text", ["x" * 5000, "9" * 5000, "9/" * 2500, "startpos moves " + "h" * 5000,
                                  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/" + "R" * 5000 + " w"],
                         ids=["letters", "nines", "ranks", "moves", "fen-rank"])
def test_a_position_text_of_thousands_of_characters_is_refused_with_a_short_message(game_id, text):
    """The move list's and the FEN's errors once quoted the whole bad token: 5,000 characters and more."""
    with pytest.raises(NotationError) as info:
        get_game(game_id).state_from_text(text)
    assert len(str(info.value)) < 300
