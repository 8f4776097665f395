"""Search on several threads sharing one tree (`MCTS` ``threads``, engine/core/parallel.py):
the visits asked for exactly, a consistent tree, legal moves, stopping on time and on request
without hanging, errors raised in the caller; one thread is the single-threaded search."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from engine.core.evaluators import UniformEvaluator
from engine.core.mcts import MCTS, SearchConfig, Tree
from games import get_game


class SleepyUniform(UniformEvaluator):
    """Uniform priors and value 0 after a short sleep, which releases the GIL as a network
    runtime does; records how many calls ran at once and which threads called."""

    releases_gil = True

    def __init__(self, delay: float = 0.002, fail_at: int | None = None):
        self.delay = delay
        self.fail_at = fail_at
        self.calls = 0
        self.running = 0
        self.most_at_once = 0
        self.threads: set[int] = set()
        self.lock = threading.Lock()

    def evaluate(self, states, legal):
        with self.lock:
            self.calls += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
            self.threads.add(threading.get_ident())
            call = self.calls
        try:
            time.sleep(self.delay)
            if self.fail_at is not None and call >= self.fail_at:
                raise RuntimeError("evaluator broke")
            return super().evaluate(states, legal)
        finally:
            with self.lock:
                self.running -= 1


def check_tree(tree: Tree) -> None:
    """Nothing left in flight (no pending leaf, no virtual loss), and every expanded node's
    edges hold its visits less the one that expanded it (fewer once its result is known:
    visits then stop at it)."""
    assert not tree.pending
    visits = tree.n_visits[:tree.num_nodes]
    assert np.all(visits == np.round(visits)), "virtual loss left on the tree"
    assert tree.root_n == round(tree.root_n)
    for node in range(1, tree.num_nodes):
        if not tree.n_count[node]:
            continue
        below = float(tree.edges(node)[1].sum())
        if np.isnan(tree.n_term[node]):
            assert below == tree.n_visits[node] - 1, f"node {node}"
        else:
            assert below <= tree.n_visits[node] - 1, f"node {node}"
        assert abs(float(tree.n_wsum[node])) <= float(tree.n_visits[node]) + 1e-3
    assert float(tree.edges(0)[1].sum()) <= tree.root_n - 1


def connect4_middle():
    g = get_game("connect4")
    s = g.initial_state()
    for a in (3, 3, 2, 4, 4, 2):
        s = s.apply(a)
    return s


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_search_takes_exactly_the_visits_asked_for(threads):
    ev = SleepyUniform()
    tree = Tree(connect4_middle())
    sims = MCTS(ev, SearchConfig(), seed=0, threads=threads).search([tree], 400)
    assert tree.root_n == 400
    assert sims == 400
    assert ev.most_at_once >= 2, "the threads never evaluated at the same time"
    assert len(ev.threads) == threads
    check_tree(tree)


def test_threads_search_continues_a_reused_tree_to_the_budget():
    ev = SleepyUniform()
    mcts = MCTS(ev, SearchConfig(), seed=0, threads=2)
    tree = Tree(connect4_middle())
    mcts.search([tree], 150)
    sims = mcts.search([tree], 300)
    assert tree.root_n == 300 and sims == 150
    check_tree(tree)


def test_threads_search_many_trees_at_once():
    ev = SleepyUniform()
    g = get_game("tictactoe")
    trees = [Tree(g.initial_state()), Tree(connect4_middle()), Tree(g.state_from_text("a1 b1"))]
    MCTS(ev, SearchConfig(), seed=0, threads=2).search(trees, [120, 200, 80])
    assert [t.root_n for t in trees] == [120, 200, 80]
    for t in trees:
        check_tree(t)


def test_threads_search_a_small_endgame_full_of_collisions_and_proofs():
    g = get_game("tictactoe")
    state = g.state_from_text("a1 b1 a2 b2 c3")   # O wins at b3; few moves, many finished lines
    ev = SleepyUniform(delay=0.001)
    tree = Tree(state)
    MCTS(ev, SearchConfig(leaf_batch=8), seed=0, threads=2).search([tree], 500)
    assert tree.root_n == 500
    assert g.initial_state().action_to_text(tree.stats(limit=1)[0].action) == "b3"
    check_tree(tree)


def test_threads_never_wait_while_finished_games_still_give_visits(monkeypatch):
    """A proven root sends every visit to a finished game, which needs no evaluator call: the
    threads back those up at once and never sit waiting for another thread's backup."""
    from engine.core import parallel
    monkeypatch.setattr(parallel, "WAIT_SECONDS", 3.0)
    g = get_game("tictactoe")
    tree = Tree(g.state_from_text("a1 b1 a2 b2"))   # X wins at a3
    start = time.perf_counter()
    MCTS(SleepyUniform(), SearchConfig(), seed=0, threads=2).search([tree], 3000, deadline=start + 2.5)
    assert tree.root_n == 3000
    assert tree.root_result() == 1.0
    check_tree(tree)


def test_two_threads_with_the_shipped_network_play_a_legal_move():
    from engine.play.players import MCTSPlayer, load_evaluator, play_search_config
    g = get_game("connect4")
    ev, _ = load_evaluator(g)
    assert getattr(ev, "releases_gil", False)
    player = MCTSPlayer(g, ev, sims=200, config=play_search_config(g), seed=0, threads=2)
    state = connect4_middle()
    result = player.choose(state)
    assert result.action in state.legal_actions()
    assert player.tree.root_n == 200
    check_tree(player.tree)


def test_threads_search_stops_at_the_deadline():
    ev = SleepyUniform()
    tree = Tree(get_game("gomoku").initial_state())
    start = time.perf_counter()
    MCTS(ev, SearchConfig(), seed=0, threads=2).search([tree], 10 ** 9, deadline=start + 0.3)
    assert time.perf_counter() - start < 5.0
    assert 0 < tree.root_n < 10 ** 9
    check_tree(tree)


def test_threads_search_stops_when_asked_and_only_the_caller_is_asked():
    ev = SleepyUniform()
    caller = threading.get_ident()
    askers, reporters = set(), set()
    asked = [0]

    def should_stop():
        askers.add(threading.get_ident())
        asked[0] += 1
        return asked[0] >= 20

    def on_progress():
        reporters.add(threading.get_ident())

    tree = Tree(get_game("gomoku").initial_state())
    start = time.perf_counter()
    MCTS(ev, SearchConfig(), seed=0, threads=2).search([tree], 10 ** 9, should_stop=should_stop,
                                                       on_progress=on_progress)
    assert time.perf_counter() - start < 10.0
    assert asked[0] == 20 and askers == {caller}
    assert reporters <= {caller}
    check_tree(tree)


def test_an_evaluator_error_in_any_thread_reaches_the_caller_and_no_thread_is_left():
    before = threading.active_count()
    ev = SleepyUniform(fail_at=6)
    tree = Tree(connect4_middle())
    with pytest.raises(RuntimeError, match="evaluator broke"):
        MCTS(ev, SearchConfig(), seed=0, threads=2).search([tree], 10 ** 6)
    assert threading.active_count() == before


def test_one_thread_is_the_single_threaded_search():
    """threads=1, and threads asked of an evaluator that holds the GIL, run the plain loop:
    the same visits, move by move, as a search without the setting."""
    state = connect4_middle()
    counts = []
    for mcts in (MCTS(UniformEvaluator(), SearchConfig(), seed=3),
                 MCTS(UniformEvaluator(), SearchConfig(), seed=3, threads=1),
                 MCTS(UniformEvaluator(), SearchConfig(), seed=3, threads=4)):
        tree = Tree(state)
        mcts.search([tree], 300)
        counts.append(tree.visit_counts()[1].tolist())
    assert counts[0] == counts[1] == counts[2]
    assert MCTS(UniformEvaluator(), threads=4).threads == 1
    assert MCTS(SleepyUniform(), threads=4).threads == 4


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True, None])
def test_threads_must_be_a_whole_number_of_at_least_one(bad):
    with pytest.raises(ValueError, match="threads"):
        MCTS(UniformEvaluator(), threads=bad)


# --- the thread count from people: command lines and protocol options ----------------------

def test_uci_threads_option_is_listed_set_and_used():
    from engine.protocols.uci import UCIEngine
    ev = SleepyUniform()
    engine = UCIEngine(get_game("connect4"), evaluator=ev, seed=0)
    assert "option name Threads type spin default 1 min 1 max 256" in engine.handle_line("uci")
    assert engine.handle_line("setoption name Threads value 2") == []
    assert engine.session.threads == 2 and engine.player.mcts.threads == 2
    out = engine.handle_line("go nodes 200")
    assert out[-1].split()[0] == "bestmove"
    assert get_game("connect4").initial_state().parse_action(out[-1].split()[1]) in range(7)
    assert engine.player.tree.root_n == 200
    assert ev.most_at_once >= 2


@pytest.mark.parametrize("bad", ["0", "-2", "two", "1.5", "", "257", "99999999999999999999"])
def test_uci_bad_threads_values_are_answered_with_an_error_and_change_nothing(bad):
    from engine.protocols.uci import UCIEngine
    engine = UCIEngine(get_game("connect4"), evaluator=UniformEvaluator(), seed=0, threads=3)
    out = engine.handle_line(f"setoption name Threads value {bad}".rstrip())
    assert len(out) == 1 and out[0].startswith("info string error setoption: Threads must be a whole number")
    assert engine.session.threads == 3


def test_ucci_threads_option():
    from engine.protocols.ucci import UCCIEngine
    engine = UCCIEngine(get_game("xiangqi"), evaluator=UniformEvaluator(), seed=0)
    assert "option threads type spin min 1 max 256 default 1" in engine.handle_line("ucci")
    assert engine.handle_line("setoption threads 2") == []
    assert engine.session.threads == 2
    assert engine.handle_line("setoption name Threads value 3") == []
    assert engine.session.threads == 3
    assert engine.handle_line("setoption threads many")[0].startswith("info string error setoption: Threads")
    assert engine.session.threads == 3


def test_gomocup_brain_takes_thread_num_before_and_after_start():
    from engine.protocols.gomocup import GomocupBrain
    brain = GomocupBrain(evaluator=UniformEvaluator(), seed=0, threads=2)
    out: list[str] = []
    brain.handle_line("INFO thread_num 3", out.append)
    brain.handle_line("START 15", out.append)
    assert out == ["OK"] and brain.session.threads == 3
    brain.handle_line("INFO thread_num 0", out.append)
    brain.handle_line("INFO thread_num lots", out.append)
    assert len(out) == 3 and all(line.startswith("ERROR INFO thread_num") for line in out[1:])
    assert brain.session.threads == 3
    brain.handle_line("INFO thread_num 1", out.append)
    assert len(out) == 3 and brain.session.threads == 1


def test_nboard_engine_takes_threads():
    from engine.protocols.nboard import NBoardEngine
    assert NBoardEngine(evaluator=UniformEvaluator(), threads=2).session.threads == 2


def test_analyse_searches_on_two_threads_to_the_budget(capsys):
    import json
    from engine.commands.cli import analyse_main
    assert analyse_main(["--game", "connect4", "--position", "44", "--sims", "120", "--threads", "2"]) == 0
    [rec] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rec["sims"] == 120 and rec["move"]


@pytest.mark.parametrize("command", ["analyse", "uci", "ucci", "pbrain", "nboard"])
@pytest.mark.parametrize("bad", ["0", "x", "-1"])
def test_commands_refuse_bad_threads_with_a_usage_error(command, bad, capsys):
    from engine.commands.cli import analyse_main
    from engine.commands.engines import nboard_main, pbrain_main, ucci_main, uci_main
    main, extra = {"analyse": (analyse_main, ["--game", "connect4"]), "uci": (uci_main, ["--game", "connect4"]),
                   "ucci": (ucci_main, []), "pbrain": (pbrain_main, []), "nboard": (nboard_main, [])}[command]
    assert main(extra + [f"--threads={bad}"]) == 2
    assert "threads must be a whole number" in capsys.readouterr().err
