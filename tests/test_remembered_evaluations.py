"""Remembered evaluations (`BatchNetEvaluator.remember`): a position met again is answered from
memory, with exactly what the network gave it. Where remembered leaves wait in the batch
(`MCTS.recall_in_gather` off), a search with the memory is the search without it, for fewer
network calls; where they are backed up as they are gathered (the default), every node still
gets the network's own priors, and the network never sees a position twice."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

from engine.core.evaluators import BatchNetEvaluator
from engine.core.mcts import MCTS, Tree
from engine.play.players import load_evaluator, play_search_config
from games import get_game


class RowHashNet(BatchNetEvaluator):
    """A stand-in network whose outputs for a row depend on that row's bytes alone (so they do
    not change with the batch around it, as a real runtime's last bits may); it keeps every
    batch it was given."""

    runtime = "row-hash"

    def __init__(self, actions: int):
        super().__init__()
        self.actions = actions
        self.batches: list[int] = []

    def infer(self, planes):
        self.batches.append(len(planes))
        logits = np.empty((len(planes), self.actions), np.float32)
        values = np.empty(len(planes), np.float32)
        for i, row in enumerate(planes):
            seed = int.from_bytes(hashlib.blake2b(row.tobytes(), digest_size=8).digest(), "little")
            rng = np.random.default_rng(seed)
            logits[i] = rng.normal(0, 1.5, self.actions)
            values[i] = rng.uniform(-0.9, 0.9)
        return logits, values


def positions(game, n: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        s = game.initial_state()
        for _ in range(int(rng.integers(2, 12))):
            if s.is_terminal():
                break
            s = s.apply(int(rng.choice(s.legal_actions())))
        if not s.is_terminal():
            out.append(s)
    return out


def search(game, evaluator, state, visits: int, threads: int = 1, in_gather: bool = True):
    mcts = MCTS(evaluator, play_search_config(game), seed=3, threads=threads)
    mcts.recall_in_gather = in_gather
    tree = Tree(state)
    mcts.search([tree], visits)
    return tree


class SeenNet(RowHashNet):
    """`RowHashNet` that also keeps the digest of every row it was given."""

    def __init__(self, actions: int):
        super().__init__(actions)
        self.rows: list[bytes] = []

    def infer(self, planes):
        self.rows.extend(hashlib.blake2b(r.tobytes(), digest_size=16).digest() for r in planes)
        return super().infer(planes)


@pytest.mark.parametrize("game_id, visits", [("connect4", 600), ("xiangqi", 800)])
def test_a_search_with_the_memory_is_the_search_without_it_for_fewer_network_positions(game_id, visits):
    game = get_game(game_id)
    recalled = asked = 0
    for state in positions(game, 3, seed=7):
        plain = RowHashNet(game.action_size)
        kept = RowHashNet(game.action_size).remember(100_000)
        a, b = search(game, plain, state, visits), search(game, kept, state, visits, in_gather=False)
        acts_a, n_a = a.visit_counts()
        acts_b, n_b = b.visit_counts()
        assert np.array_equal(acts_a, acts_b) and np.array_equal(n_a, n_b)
        assert a.root_value() == b.root_value()
        # every leaf asked for was answered once: by the network or from the memory
        assert kept.positions + kept.recalled == plain.positions
        assert kept.positions == sum(kept.batches)
        recalled, asked = recalled + kept.recalled, asked + plain.positions
    # transpositions are common in both games: the memory answered some of them
    assert 0 < recalled < asked


@pytest.mark.parametrize("game_id, visits", [("connect4", 600), ("xiangqi", 800)])
def test_remembered_leaves_backed_up_as_gathered_get_the_networks_own_priors(game_id, visits):
    game = get_game(game_id)
    recalled = 0
    for state in positions(game, 3, seed=7):
        reference = RowHashNet(game.action_size)
        kept = SeenNet(game.action_size).remember(100_000)
        mcts = MCTS(kept, play_search_config(game), seed=3)
        mcts.recall_in_gather = True
        tree = Tree(state)
        assert mcts.search([tree], visits) == visits and tree.root_n == visits
        assert not tree.pending
        # the network never saw a position twice, and the memory answered the rest
        assert len(set(kept.rows)) == len(kept.rows) == kept.positions
        recalled += kept.recalled
        # every expanded node below the root has the priors the network gives its position
        shaper = MCTS(reference, play_search_config(game))
        for node in range(1, tree.num_nodes):
            if tree.n_count[node] == 0:
                continue
            st = tree.states[node]
            acts = st.legal_actions()
            p, v = reference.evaluate([st], [acts])
            leads = None
            if mcts.cfg.tactics and mcts.cfg.material_scale > 0 and hasattr(type(st), "heuristic"):
                leads = [type(st).heuristic(state, 0)]
            want = shaper.shaped([st], [acts], p, v, leads)[0][0]
            stored = np.asarray(want).astype(tree.e_prior.dtype).astype(np.float32)   # as the tree keeps priors
            assert np.array_equal(tree.edges(node)[3], stored), node
    assert recalled > 0


def test_remembered_leaves_backed_up_as_gathered_keep_the_batches_fuller():
    game = get_game("connect4")
    sizes = {}
    for in_gather in (False, True):
        net = RowHashNet(game.action_size).remember(100_000)
        for state in positions(game, 3, seed=7):
            net.forget()
            search(game, net, state, 600, in_gather=in_gather)
        sizes[in_gather] = (net.positions, len(net.batches))
    # the same network positions or fewer, in fewer, fuller calls
    assert sizes[True][0] <= sizes[False][0]
    assert sizes[True][0] / sizes[True][1] > sizes[False][0] / sizes[False][1]


def test_a_position_twice_in_one_batch_reaches_the_network_once():
    game = get_game("connect4")
    net = RowHashNet(game.action_size).remember(10)
    s, t = positions(game, 2, seed=1)
    priors, values = net.evaluate([s, t, s], [s.legal_actions(), t.legal_actions(), s.legal_actions()])
    assert net.batches == [2] and net.recalled == 1
    assert np.array_equal(priors[0], priors[2]) and values[0] == values[2]
    priors, values2 = net.evaluate([t], [t.legal_actions()])
    assert net.batches == [2] and net.recalled == 2 and values2[0] == values[1]


def test_the_answers_match_the_network_alone_and_the_memory_hands_out_copies():
    game = get_game("connect4")
    plain, kept = RowHashNet(game.action_size), RowHashNet(game.action_size).remember(10)
    states = positions(game, 4, seed=2)
    legal = [s.legal_actions() for s in states]
    want_p, want_v = plain.evaluate(states, legal)
    got_p, got_v = kept.evaluate(states, legal)
    got_p[0][:] = 0.0                      # a caller changing what it was given...
    again_p, again_v = kept.evaluate(states, legal)
    assert kept.batches == [4]
    for w, g in zip(want_p, again_p):      # ...changes nothing remembered
        assert np.array_equal(w, g)
    assert np.array_equal(want_v, got_v) and np.array_equal(want_v, again_v)


def test_other_legal_moves_make_another_position():
    game = get_game("connect4")
    net = RowHashNet(game.action_size).remember(10)
    s = positions(game, 1, seed=3)[0]
    legal = s.legal_actions()
    net.evaluate([s], [legal])
    net.evaluate([s], [legal[:-1]])
    assert net.batches == [1, 1] and net.recalled == 0


def test_the_oldest_evaluation_goes_first_when_the_memory_is_full():
    game = get_game("connect4")
    net = RowHashNet(game.action_size).remember(2)
    a, b, c = positions(game, 3, seed=4)
    for s in (a, b, c):                     # a is forgotten to make room for c
        net.evaluate([s], [s.legal_actions()])
    net.evaluate([c], [c.legal_actions()])
    assert net.batches == [1, 1, 1]
    net.evaluate([a], [a.legal_actions()])
    assert net.batches == [1, 1, 1, 1]
    net.forget()
    net.evaluate([a], [a.legal_actions()])
    assert net.batches == [1, 1, 1, 1, 1]


@pytest.mark.parametrize("bad", [-1, 1.5, True, "8"])
def test_a_memory_size_must_be_a_whole_number(bad):
    with pytest.raises(ValueError):
        RowHashNet(7).remember(bad)


def test_threads_share_one_memory():
    game = get_game("connect4")
    state = positions(game, 1, seed=6)[0]   # one the search does not prove at once
    for in_gather in (False, True):
        net = RowHashNet(game.action_size).remember(100_000)
        tree = search(game, net, state, 800, threads=2, in_gather=in_gather)
        assert tree.root_n == 800 and not tree.pending
        assert net.recalled > 0


def test_play_evaluators_remember_as_each_game_is_configured():
    from engine.core.config import load_config
    for game_id in ("connect4", "gomoku"):
        game = get_game(game_id)
        ev, _ = load_evaluator(game)
        if not isinstance(ev, BatchNetEvaluator):
            pytest.skip("no shipped model")
        want = load_config(game).play.memory
        assert (ev._memory is not None) == (want > 0) and ev._memory_size == want
        assert ev.in_gather == load_config(game).play.memory_in_gather
    assert load_config(get_game("connect4")).play.memory > 0


def test_a_search_follows_its_evaluators_gather_setting_unless_told():
    game = get_game("connect4")
    for told, in_gather, want in ((None, True, True), (None, False, False), (False, True, False),
                                  (True, False, True)):
        mcts = MCTS(RowHashNet(game.action_size).remember(10, in_gather=in_gather))
        mcts.recall_in_gather = told
        assert mcts._recalling() is want
    assert MCTS(RowHashNet(game.action_size), None)._recalling() is False   # no memory: nothing to ask
    assert MCTS(RowHashNet(game.action_size).remember(0, in_gather=True))._recalling() is False


@pytest.mark.parametrize("section, value", [("play", -1), ("selfplay", -5), ("play", 1 << 30)])
def test_a_config_asking_for_an_impossible_memory_is_refused_with_a_message(tmp_path, section, value):
    from engine.core.config import load_config
    f = tmp_path / "c.toml"
    f.write_text(f"[{section}]\nmemory = {value}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=rf"\[{section}\]: memory must be between 0"):
        load_config(get_game("connect4"), f)


def test_model_specs_remember_as_the_app_plays():
    from pathlib import Path

    from engine.commands.specs import player_from_spec
    from engine.core.config import load_config
    for game_id in ("connect4", "gomoku"):
        game = get_game(game_id)
        path = Path(__file__).resolve().parents[1] / "models" / f"{game_id}.pt"
        if not path.exists():
            pytest.skip("no shipped model")
        player = player_from_spec(game, f"model:{path}@10", seed=1)
        assert player.mcts.evaluator.remembering == (load_config(game).play.memory > 0)
