"""The optional State.heuristic hook that the greedy baseline players use."""
from games import get_game


def test_othello_heuristic_is_the_disc_difference():
    s = get_game("othello").state_from_text("f5")
    assert s.heuristic(0) == 3.0 and s.heuristic(1) == -3.0


def test_xiangqi_heuristic_counts_material_and_soldiers_across_the_river():
    x = get_game("xiangqi")
    assert x.initial_state().heuristic(0) == 0.0
    s = x.state_from_text("startpos moves h2h9")  # the cannon takes a horse
    assert s.heuristic(0) == 4.0 and s.heuristic(1) == -4.0
    s = x.state_from_text("startpos moves c3c4 a6a5 c4c5")  # red soldier crosses the river
    assert s.heuristic(0) == 1.0


def test_greedy_player_takes_free_material():
    from engine.play.baselines import GreedyPlayer
    x = get_game("xiangqi")
    s = x.state_from_text("startpos moves h2h9")  # red's cannon takes a horse and stands en prise
    a = GreedyPlayer(x, seed=0).choose(s).action
    assert abs(s.captured(a)) == 6  # black takes the cannon back
    assert s.apply(a).heuristic(1) == 0.5  # cannon 4.5 for horse 4
