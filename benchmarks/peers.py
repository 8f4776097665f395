"""Benchmark: ZeroBoard's play search against two public AlphaZero searches on the same network.

The peers are alpha-zero-general (suragnair/alpha-zero-general, connect4) and AlphaZero_Gomoku
(junxiaosong/AlphaZero_Gomoku, gomoku 15x15, five in a row). Their MCTS and game rules are
imported at run time from checkouts given on the command line (none of their code is in this
repository); the small adapters below give their searches ZeroBoard's shipped network
(models/<game>.pt via `checkpoint.load_network`), called the way each peer calls its own:

- alpha-zero-general: ``NNet.predict(board)``, one position a call, torch float32 under
  ``torch.no_grad``, as its pytorch NNet does (probabilities from the logits, the value);
- AlphaZero_Gomoku: ``policy_value_fn(board)``, one position a call, torch float32 with
  autograd left on, as its pytorch version's CPU path does; (point, probability) pairs.

Each call encodes the peer's board into ZeroBoard's input planes (connect4: the mover's and the
opponent's stones; gomoku: the stones, last move, colour and the threat planes, through the
compiled gomoku core where it is built, else by replaying the moves through the state API): a
real encode per call, whose CPU the output reports (``adapter_encode_share``).

ZeroBoard searches as the app plays: the play evaluator (`load_evaluator`: the runtime chosen
on this machine, ONNX Runtime float32 on the development machine) and the play search settings
(`play_search_config`: leaf batch 8 ...), one search thread, and two for information.

Modes, each a fixed number of simulations a search from a fresh tree:

- ``peer``: the peer as played (torch, one position a call);
- ``zeroboard``: ZeroBoard as played, one thread (the target's ratio is this over ``peer``);
- ``zeroboard-2t``: the same on two search threads (CPU of both threads counted);
- ``zeroboard-torch-b1``: ZeroBoard's search with the peer's runtime: the same torch module
  called the same way, one position a call (leaf batch 1) -- search and rules speed alone;
- ``peer-zb-runtime``: the peer with ZeroBoard's play runtime behind its network call (one
  position a call) -- the other way to put both on the same runtime;
- ``peer-no-autograd`` (gomoku): AlphaZero_Gomoku with its network call under
  ``torch.no_grad``, which its own code leaves out: what that choice costs it.

Besides, the network's own CPU a position is timed (``net_us_per_position``: torch one position
a call as the peers call it, ZeroBoard's runtime one position a call and at its leaf batch), and
each mode's CPU a simulation outside the network is estimated from it (``other_us_per_sim``:
the search, the rules, the encoding and the glue; a difference of two timings, so rough where
the network is most of a simulation: the network timed alone runs with warm caches).

The positions are the start and seeded positions after 2-8 random plies that a short search
does not prove (benchmarks/threads.py `positions`), converted to each peer's board. All modes
search every position in every round, in an order that alternates round by round, in one
process; each figure is simulations over the process CPU time (time.process_time) of its
searches. torch runs on one intra-op thread for everybody.

    python benchmarks/peers.py --azg PATH --azgomoku PATH [--games connect4 gomoku]
        [--sims 800] [--positions 4] [--rounds 2] [--seed 0] [--no-threads2]

PATH: a checkout of each peer, e.g. ``git clone https://github.com/suragnair/alpha-zero-general``
(only connect4 needs --azg, only gomoku --azgomoku).
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PEERS = {
    "connect4": ("azg", "alpha-zero-general", ("MCTS.py", "Game.py", "connect4/Connect4Game.py",
                                               "connect4/Connect4Logic.py")),
    "gomoku": ("azgomoku", "AlphaZero_Gomoku", ("mcts_alphaZero.py", "game.py")),
}
#: the peers' own search settings as their play scripts set them (alpha-zero-general's main.py
#: and pit.py: cpuct 1; AlphaZero_Gomoku's human_play.py: c_puct 5)
AZG_CPUCT = 1.0
AZGOMOKU_CPUCT = 5.0
GOMOKU_SIZE = 15


class PeerError(Exception):
    """A peer checkout that is missing, incomplete or does not import: one line for the user."""


def peer_checkout(path: str | None, flag: str, name: str, required: tuple[str, ...]) -> tuple[Path, str]:
    """(folder, commit) of a peer's checkout; PeerError naming what is wrong."""
    if not path:
        raise PeerError(f"--{flag} is needed: the path of a checkout of {name}")
    root = Path(path).expanduser().resolve()
    if not root.is_dir():
        raise PeerError(f"--{flag} {path}: no such folder (a checkout of {name} is needed)")
    missing = [f for f in required if not (root / f).is_file()]
    if missing:
        raise PeerError(f"--{flag} {path}: not a checkout of {name} ({missing[0]} is missing)")
    try:   # the checkout's own commit, not that of a repository it happens to sit in
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel", "HEAD"], capture_output=True,
                             text=True, timeout=30).stdout.split()
        top_level = len(out) == 2 and Path(out[0]).resolve() == root
        commit = out[1] if top_level else "unknown (not a git checkout)"
    except (OSError, subprocess.SubprocessError):
        commit = "unknown (git not available)"
    return root, commit


def import_from(root: Path, module: str, name: str):
    """Import ``module`` from the peer checkout ``root`` (first on the path: a top-level name
    such as ``connect4`` must be the peer's), checking it really came from there."""
    if sys.path[0] != str(root):
        sys.path.insert(0, str(root))
    try:
        mod = importlib.import_module(module)
    except Exception as e:
        raise PeerError(f"{root}: cannot import {name}'s {module} ({type(e).__name__}: {e})") from None
    where = Path(getattr(mod, "__file__", "") or "").resolve()
    if root not in where.parents:
        raise PeerError(f"{root}: {module} was imported from {where}, not from the {name} checkout")
    return mod


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max())
    return z / z.sum()


class NetCall:
    """One position through the network, as a peer calls its own: the plain torch module
    (float32, ``no_grad`` or autograd on as the peer does), or ZeroBoard's play runtime.
    Returns (policy logits over ZeroBoard's actions, value for the player to move)."""

    def __init__(self, net, grad: bool, evaluator=None):
        import torch
        self.torch = torch
        self.net = net
        self.grad = grad
        self.evaluator = evaluator   # ZeroBoard's play evaluator: its ``infer`` replaces torch
        self.positions = 0

    def __call__(self, planes: np.ndarray) -> tuple[np.ndarray, float]:
        self.positions += 1
        if self.evaluator is not None:
            logits, values = self.evaluator.infer(planes[None])
            return logits[0], float(values[0])
        torch = self.torch
        x = torch.FloatTensor(planes).view(1, *planes.shape)
        self.net.eval()
        if self.grad:
            logits, values = self.net(x)
            return logits.data.numpy()[0], values.data.numpy()[0]
        with torch.no_grad():
            logits, values = self.net(x)
        return logits.numpy()[0], values.numpy()[0]


class EncodeClock:
    """CPU seconds the adapters spend encoding the peers' boards into ZeroBoard's planes."""

    def __init__(self):
        self.cpu = 0.0


# ---------------------------------------------------------------- alpha-zero-general (connect4)

class AzgNet:
    """alpha-zero-general's NeuralNet interface (``predict``) over ZeroBoard's network."""

    def __init__(self, call: NetCall, clock: EncodeClock):
        self.call = call
        self.clock = clock

    def predict(self, board: np.ndarray):
        """(probabilities over the 7 columns, value) for a canonical board (+1: the player to move)."""
        start = time.process_time()
        planes = np.stack((board == 1, board == -1)).astype(np.float32)   # ZeroBoard's connect4 planes
        self.clock.cpu += time.process_time() - start
        logits, value = self.call(planes)
        return softmax(logits), value


def azg_game_class(azg_module):
    """alpha-zero-general's Connect4Game, with two calls that numpy 2 removed given their
    numpy 2 spelling: ``np.int`` (the board made here with a plain int array instead) and
    ``ndarray.tostring`` (``tobytes``, which it was an alias of)."""

    class Connect4(azg_module.Connect4Game):
        def __init__(self):
            super().__init__(np_pieces=np.zeros((6, 7), dtype=int))

        def stringRepresentation(self, board):
            return board.tobytes()

    return Connect4


class AzgArgs:
    def __init__(self, sims: int, cpuct: float):
        self.numMCTSSims = sims
        self.cpuct = cpuct


def azg_board(state) -> np.ndarray:
    """ZeroBoard's connect4 position as alpha-zero-general's canonical board (+1: the mover's
    stones, row 0 at the top: its add_stone fills the highest free row index)."""
    board = state.board_array().astype(int)   # +1 the first player's stones, row 0 at the top
    return board if state.current_player == 0 else -board


class AzgPeer:
    def __init__(self, root: Path, net_call: NetCall, clock: EncodeClock):
        game_mod = import_from(root, "connect4.Connect4Game", "alpha-zero-general")
        self.mcts_mod = import_from(root, "MCTS", "alpha-zero-general")
        if not hasattr(game_mod, "Connect4Game") or not hasattr(self.mcts_mod, "MCTS"):
            raise PeerError(f"{root}: alpha-zero-general's Connect4Game or MCTS class is missing")
        self.game = azg_game_class(game_mod)()
        self.net = AzgNet(net_call, clock)

    def board(self, state):
        return azg_board(state)

    def search(self, board, sims: int) -> int:
        """One search of ``sims`` simulations from a fresh tree, as its getActionProb runs them."""
        mcts = self.mcts_mod.MCTS(self.game, self.net, AzgArgs(sims, AZG_CPUCT))
        mcts.getActionProb(board, temp=1)
        return sims


# ---------------------------------------------------------------- AlphaZero_Gomoku (gomoku 15x15)

def gomoku_encoder():
    """A function from AlphaZero_Gomoku's Board to ZeroBoard's gomoku planes (8 x 15 x 15)."""
    from games import get_game
    from games import gomoku as zb_gomoku
    game = get_game("gomoku")
    core = zb_gomoku._core
    size = GOMOKU_SIZE
    if game.size != size:
        raise SystemExit(f"peers: ZeroBoard's gomoku is {game.size}x{game.size}, the benchmark needs {size}x{size}")

    def point(move: int) -> int:   # the peer counts rows from the bottom, ZeroBoard from the top
        return (size - 1 - move // size) * size + move % size

    def encode(board) -> np.ndarray:
        moves = [point(m) for m in board.states]            # a dict in the order the moves were made
        if core is None:                                    # no compiled core: the state API
            state = game.initial_state()
            for p in moves:
                state = state.apply(p)
            return state.encode()
        me = opp = 0
        mine = board.current_player
        for m, who in board.states.items():
            if who == mine:
                me |= 1 << point(m)
            else:
                opp |= 1 << point(m)
        empty = game.full ^ (me | opp)
        wins_me = wins_opp = 0
        for m, who in board.states.items():
            p = point(m)
            if who == mine:
                wins_me |= core.winning_points(size, me, empty, p)
            else:
                wins_opp |= core.winning_points(size, opp, empty, p)
        raw = core.encode(size, me, opp, wins_me, wins_opp, moves[-1] if moves else -1, len(moves) % 2 == 0)
        return np.frombuffer(raw, np.float32).reshape(-1, size, size)

    return encode, point


class AzgomokuNet:
    """AlphaZero_Gomoku's ``policy_value_fn`` over ZeroBoard's network."""

    def __init__(self, call: NetCall, clock: EncodeClock):
        self.call = call
        self.clock = clock
        self.encode, point = gomoku_encoder()
        # ZeroBoard's action of each of the peer's moves, to read the priors in the peer's order
        self.to_zb = np.array([point(m) for m in range(GOMOKU_SIZE * GOMOKU_SIZE)])

    def policy_value_fn(self, board):
        legal = board.availables
        start = time.process_time()
        planes = self.encode(board)
        self.clock.cpu += time.process_time() - start
        logits, value = self.call(planes)
        probs = softmax(logits)[self.to_zb]
        return zip(legal, probs[legal]), value


class AzgomokuPeer:
    def __init__(self, root: Path, net_call: NetCall, clock: EncodeClock):
        self.game_mod = import_from(root, "game", "AlphaZero_Gomoku")
        self.mcts_mod = import_from(root, "mcts_alphaZero", "AlphaZero_Gomoku")
        if not hasattr(self.game_mod, "Board") or not hasattr(self.mcts_mod, "MCTS"):
            raise PeerError(f"{root}: AlphaZero_Gomoku's Board or MCTS class is missing")
        self.net = AzgomokuNet(net_call, clock)

    def board(self, state):
        """ZeroBoard's gomoku position as AlphaZero_Gomoku's Board, its moves replayed."""
        board = self.game_mod.Board(width=GOMOKU_SIZE, height=GOMOKU_SIZE, n_in_row=5)
        board.init_board(0)
        for p in state.moves:
            board.do_move((GOMOKU_SIZE - 1 - p // GOMOKU_SIZE) * GOMOKU_SIZE + p % GOMOKU_SIZE)
        return board

    def search(self, board, sims: int) -> int:
        """One search of ``sims`` playouts from a fresh tree, as its get_move_probs runs them."""
        mcts = self.mcts_mod.MCTS(self.net.policy_value_fn, c_puct=AZGOMOKU_CPUCT, n_playout=sims)
        mcts.get_move_probs(board, temp=1e-3)
        return sims


# ---------------------------------------------------------------- ZeroBoard

class TorchOneByOne:
    """A ZeroBoard evaluator that runs the network exactly as a peer's adapter does (`NetCall`,
    one position a call): ZeroBoard's search on the peer's runtime."""

    releases_gil = False

    def __init__(self, call: NetCall):
        self.call = call

    def evaluate(self, states, legal):
        priors, values = [], []
        for s, acts in zip(states, legal):
            logits, value = self.call(s.encode())
            priors.append(softmax(logits[acts]))
            values.append(value)
        return priors, np.asarray(values, dtype=np.float64)


def zeroboard_search(evaluator, cfg, threads: int):
    from engine.core.mcts import MCTS, Tree

    def search(state, sims: int) -> int:
        tree = Tree(state)
        MCTS(evaluator, cfg, seed=0, threads=threads).search([tree], sims)
        return int(tree.root_n)
    return search


# ---------------------------------------------------------------- the measurement

def load_positions(game, count: int, seed: int) -> list:
    """benchmarks/threads.py's positions: the start and seeded open positions."""
    spec = importlib.util.spec_from_file_location("zeroboard_threads_benchmark", Path(__file__).with_name("threads.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.positions(game, count, seed)


def check_encoding(peer, states, boards) -> None:
    """The adapter's planes for each converted position must be ZeroBoard's own planes for it."""
    for state, board in zip(states, boards):
        if isinstance(peer, AzgPeer):
            planes = np.stack((board == 1, board == -1)).astype(np.float32)
        else:
            planes = peer.net.encode(board)
        if not np.array_equal(planes, state.encode()):
            raise PeerError(f"the adapter encodes {state.moves} differently from ZeroBoard")


def net_cpu_per_position(run, windows: int = 3, window: float = 0.3) -> float:
    """CPU seconds a position of ``run()`` (which evaluates positions and returns how many),
    the fastest of ``windows`` windows of ``window`` CPU-seconds after a warm-up call."""
    run()
    best = float("inf")
    for _ in range(windows):
        done, start = 0, time.process_time()
        while time.process_time() - start < window:
            done += run()
        best = min(best, (time.process_time() - start) / done)
    return best


def network_costs(net, grad: bool, play_ev, states: list, batch: int) -> dict:
    """Microseconds a position of the network alone: as the peers call it (torch, one
    position; also without autograd where the peer leaves it on), in ZeroBoard's play runtime
    one position a call, and at its leaf batch."""
    planes = np.stack([s.encode() for s in (states * batch)[:batch]])

    def torch_one(call):
        def run():
            call(planes[0])
            return 1
        return run

    def one_zb():
        play_ev.infer(planes[:1])
        return 1

    def batch_zb():
        play_ev.infer(planes)
        return batch
    runs = {"torch_b1_as_peer": torch_one(NetCall(net, grad))}
    if grad:
        runs["torch_b1_no_autograd"] = torch_one(NetCall(net, False))
    runs.update({"zb_runtime_b1": one_zb, f"zb_runtime_b{batch}": batch_zb})
    return {name: round(net_cpu_per_position(f) * 1e6, 1) for name, f in runs.items()}


def measure(game_id: str, peer_root: Path, commit: str, args) -> dict:
    import torch
    from engine.core.checkpoint import load_network
    from engine.core.paths import shipped_model_path
    from engine.play.players import load_evaluator, play_search_config
    from games import get_game
    game = get_game(game_id)
    torch.set_num_threads(1)
    path = shipped_model_path(game.key)
    if path is None:
        raise PeerError(f"no shipped model for {game_id}")
    net, _ = load_network(path, game)
    net.eval()
    play_ev, desc = load_evaluator(game)
    cfg = play_search_config(game)
    peer_grad = game_id == "gomoku"   # AlphaZero_Gomoku's CPU path leaves autograd on; alpha-zero-general does not
    clocks = {"peer": EncodeClock(), "peer-zb-runtime": EncodeClock()}
    peer_cls = AzgPeer if game_id == "connect4" else AzgomokuPeer
    calls = {"peer": NetCall(net, peer_grad), "peer-zb-runtime": NetCall(net, peer_grad, evaluator=play_ev),
             "zeroboard-torch-b1": NetCall(net, peer_grad)}
    peer = peer_cls(peer_root, calls["peer"], clocks["peer"])
    peer_ort = peer_cls(peer_root, calls["peer-zb-runtime"], clocks["peer-zb-runtime"])
    modes = {
        "peer": lambda board, sims: peer.search(board, sims),
        "zeroboard": zeroboard_search(play_ev, cfg, 1),
        "zeroboard-torch-b1": zeroboard_search(TorchOneByOne(calls["zeroboard-torch-b1"]),
                                               play_search_config(game, leaf_batch=1), 1),
        "peer-zb-runtime": lambda board, sims: peer_ort.search(board, sims),
    }
    if args.threads2:
        modes["zeroboard-2t"] = zeroboard_search(play_ev, cfg, 2)
    if peer_grad:   # how much the peer's autograd costs it: the same peer under torch.no_grad
        calls["peer-no-autograd"] = NetCall(net, False)
        clocks["peer-no-autograd"] = EncodeClock()
        peer_ng = peer_cls(peer_root, calls["peer-no-autograd"], clocks["peer-no-autograd"])
        modes["peer-no-autograd"] = lambda board, sims: peer_ng.search(board, sims)

    def evaluated(mode: str) -> int:   # positions the network has evaluated for ``mode`` so far
        return calls[mode].positions if mode in calls else play_ev.positions
    states = load_positions(game, args.positions, args.seed)
    try:
        boards = [peer.board(s) for s in states]
    except Exception as e:
        raise PeerError(f"{peer_root}: {PEERS[game_id][1]}'s board does not take a position as this benchmark "
                        f"expects ({type(e).__name__}: {e})") from None
    check_encoding(peer, states, boards)
    # a short warm-up of each mode (first calls allocate, import and build sessions)
    for name, run in modes.items():
        if not name.startswith("peer"):
            run(states[0], 16)
            continue
        try:
            run(boards[0], 16)
        except Exception as e:   # another version of the peer, with other names or calls
            raise PeerError(f"{peer_root}: {PEERS[game_id][1]}'s search does not run as this benchmark "
                            f"expects ({type(e).__name__}: {e})") from None
    for clock in clocks.values():
        clock.cpu = 0.0
    totals = {m: [0, 0.0, 0] for m in modes}
    order = list(modes)
    load_before = os.getloadavg()
    for r in range(args.rounds):
        for k, (state, board) in enumerate(zip(states, boards)):
            for m in (order if (r + k) % 2 == 0 else order[::-1]):
                before, start = evaluated(m), time.process_time()
                done = modes[m](board if m.startswith("peer") else state, args.sims)
                totals[m][1] += time.process_time() - start
                totals[m][0] += done
                totals[m][2] += evaluated(m) - before
    rate = {m: v / c for m, (v, c, _) in totals.items()}
    out = {
        "game": game_id, "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "peer": PEERS[game_id][1], "peer_commit": commit, "zeroboard_commit": git_head(ROOT),
        "network": f"{path.name} ({desc})", "zeroboard_runtime": getattr(play_ev, "runtime", "?"),
        "leaf_batch": cfg.leaf_batch, "sims_a_search": args.sims, "positions": len(states),
        "rounds": args.rounds, "torch_threads": torch.get_num_threads(),
        "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
        "modes": {m: {"sims": v, "cpu_s": round(c, 2), "sims_per_cpu_s": round(v / c, 1),
                      "net_positions_per_sim": round(n / v, 3)}
                  for m, (v, c, n) in totals.items()},
        "ratio_as_played": round(rate["zeroboard"] / rate["peer"], 2),
        "ratio_same_runtime_torch_b1": round(rate["zeroboard-torch-b1"] / rate["peer"], 2),
        "ratio_same_runtime_zb": round(rate["zeroboard"] / rate["peer-zb-runtime"], 2),
        "adapter_encode_share": {m: round(clocks[m].cpu / totals[m][1], 4) for m in clocks},
        "target_6x_met": rate["zeroboard"] / rate["peer"] >= 6.0,
        "net_us_per_position": network_costs(net, peer_grad, play_ev, states, cfg.leaf_batch),
    }
    # the CPU a simulation spends outside the network: its whole CPU less the network's
    # positions a simulation times the network's own cost in that mode's runtime and batch
    runtime_of = {"peer": "torch_b1_as_peer", "peer-no-autograd": "torch_b1_no_autograd",
                  "zeroboard-torch-b1": "torch_b1_as_peer", "peer-zb-runtime": "zb_runtime_b1",
                  "zeroboard": f"zb_runtime_b{cfg.leaf_batch}"}
    for m, key in runtime_of.items():
        if m not in out["modes"]:
            continue
        fig = out["modes"][m]
        net_us = fig["net_positions_per_sim"] * out["net_us_per_position"][key]
        fig["other_us_per_sim"] = round(1e6 / rate[m] - net_us, 1)
    if "zeroboard-2t" in rate:
        out["ratio_two_threads"] = round(rate["zeroboard-2t"] / rate["peer"], 2)
    if "peer-no-autograd" in rate:
        out["ratio_peer_without_autograd"] = round(rate["zeroboard"] / rate["peer-no-autograd"], 2)
    return out


def git_head(root: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, timeout=30).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def table(results: list[dict]) -> str:
    lines = ["game      mode                 sims/CPU-s  x peer  us/sim outside the network", "-" * 76]
    for res in results:
        base = res["modes"]["peer"]["sims_per_cpu_s"]
        for m, fig in res["modes"].items():
            other = fig.get("other_us_per_sim")
            speed = fig["sims_per_cpu_s"]
            lines.append(f"{res['game']:<9} {m:<20} {speed:>10.1f}  {speed / base:>6.2f}"
                         + (f"  {other:>8.1f}" if other is not None else ""))
        lines.append(f"{res['game']:<9} as played: {res['ratio_as_played']}x (target 6x: "
                     f"{'met' if res['target_6x_met'] else 'not met'}); same runtime: torch b1 "
                     f"{res['ratio_same_runtime_torch_b1']}x, ZeroBoard's {res['ratio_same_runtime_zb']}x")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--azg", help="an alpha-zero-general checkout (for connect4)")
    ap.add_argument("--azgomoku", help="an AlphaZero_Gomoku checkout (for gomoku)")
    ap.add_argument("--games", nargs="+", default=["connect4", "gomoku"], choices=sorted(PEERS))
    ap.add_argument("--sims", type=int, default=800, help="simulations a search")
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-threads2", dest="threads2", action="store_false",
                    help="leave out ZeroBoard on two search threads")
    args = ap.parse_args()
    if args.sims < 1 or args.positions < 1 or args.rounds < 1:
        ap.error("--sims, --positions and --rounds must be positive")
    try:
        # every checkout is checked before anything is measured
        checkouts = {g: peer_checkout(getattr(args, PEERS[g][0]), PEERS[g][0], PEERS[g][1], PEERS[g][2])
                     for g in args.games}
        results = []
        for g in args.games:
            res = measure(g, *checkouts[g], args)
            print(json.dumps(res), flush=True)
            results.append(res)
    except PeerError as e:
        print(f"peers: {e}", file=sys.stderr)
        return 2
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
