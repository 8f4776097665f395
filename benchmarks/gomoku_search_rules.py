"""Benchmark: a gomoku search's CPU a visit with the Python rules and with the compiled core.

Two measures, each path in turn, round by round (interleaved), the fastest round kept:

- ``model``: ``main.py analyse`` with the shipped model (ONNX Runtime forced, so both paths use the
  same network runtime), ``--batch 1``, each path in its own process; a run's CPU time is taken
  from getrusage of children, less that of the same command at ``--sims 1`` (start-up, model
  loading) in the same round. Both paths must choose the same moves.
- ``uniform``: the search with a uniform evaluator (no network: the tree and the rules alone,
  tactics and the threat proofs on, as at play), in this process, the module's compiled core
  switched off and on; the visit counts of both paths must be equal.

Positions (``--source``): ``selfplay`` (the default), positions spread evenly over two games the
shipped model plays against itself with its self-play settings (ONNX Runtime, fixed seed), where
threats are as common as in real games; or ``random``, random games of 8-40 plies, each move next to
one of the last stones played, fixed seed (quiet positions: few threats).

    python benchmarks/gomoku_search_rules.py [--sims 800] [--positions 6] [--rounds 3] [--measure model uniform]
        [--source selfplay|random] [--rule freestyle|standard|renju]

``--rule`` plays every position, game and search under that rule set (its own shipped network where
there is one: models/gomoku-renju.pt under renju; the free-style network otherwise).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


RULE = "freestyle"   # set by --rule


def the_game():
    from games import get_game
    return get_game("gomoku", rule=RULE)


def positions(count: int, seed: int) -> list[str]:
    game, rng, out = the_game(), random.Random(seed), []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(rng.randrange(8, 40)):
            acts = s.legal_actions()
            near = [a for a in acts if s.moves and any(abs(a // 15 - m // 15) <= 1 and abs(a % 15 - m % 15) <= 1
                                                       for m in s.moves[-4:])]
            s2 = s.apply(rng.choice(near or acts))
            if s2.is_terminal():
                break
            s = s2
        if not s.is_terminal() and s.proven_value() is None:
            out.append(s.to_text())
    return out


def selfplay_positions(count: int, seed: int) -> list[str]:
    from engine.core.checkpoint import load_network
    from engine.core.config import load_config
    from engine.core.paths import shipped_model_path
    from engine.core.runtime import build_evaluator
    from engine.core.selfplay import play_games
    game = the_game()
    net, _ = load_network(shipped_model_path(game.key) or shipped_model_path(game.network_key), game)
    records, _ = play_games(game, build_evaluator("ort-fp32", net), load_config(game, None).selfplay, 2, seed=seed)
    texts = []
    for record in records:
        s = game.initial_state()
        for a in record.moves:
            s = s.apply(a)
            if not s.is_terminal() and s.proven_value() is None and len(s.moves) >= 6:
                texts.append(s.to_text())
    step = max(len(texts) / count, 1.0)
    return [texts[int(i * step)] for i in range(min(count, len(texts)))]


def analyse(path: Path, sims: int, pure: bool) -> tuple[list[str], float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), ZEROBOARD_RUNTIME="ort", ZEROBOARD_PURE_PYTHON="1" if pure else "0")
    before = child_cpu()
    out = subprocess.run([sys.executable, "main.py", "analyse", "--game", "gomoku", "--rule", RULE,
                          "--positions-file", str(path), "--sims", str(sims), "--batch", "1", "--seed", "1"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=1800)
    if out.returncode != 0:
        raise SystemExit(f"gomoku_search_rules: analyse failed: {out.stderr.strip()[-400:]}")
    moves = [json.loads(line).get("move", "?") for line in out.stdout.splitlines() if line.startswith("{")]
    return moves, child_cpu() - before


def measure_model(texts: list[str], sims: int, rounds: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="gomoku_search_"))
    path = folder / "positions.txt"
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")
    best: dict[str, float] = {}
    chosen: dict[str, list[str]] = {}
    for _ in range(rounds):
        for name, pure in (("python", True), ("compiled", False)):
            moves, cpu = analyse(path, sims, pure)
            _, base = analyse(path, 1, pure)
            us = max(cpu - base, 0.0) / (sims * len(texts)) * 1e6
            best[name] = min(best.get(name, us), us)
            chosen[name] = moves
    return {"measure": "model", "cpu_us_a_visit": {k: round(v, 1) for k, v in best.items()},
            "ratio": round(best["python"] / best["compiled"], 2), "same_moves": chosen["python"] == chosen["compiled"]}


def measure_uniform(texts: list[str], sims: int, rounds: int) -> dict:
    import games.gomoku as gm
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, Tree
    game, compiled = the_game(), gm._core
    if compiled is None:
        raise SystemExit("gomoku_search_rules: the compiled gomoku core is not built")
    best: dict[str, float] = {}
    counts: dict[str, list] = {}
    for _ in range(rounds):
        for name, module in (("python", None), ("compiled", compiled)):
            gm._core = module
            cpu, seen = 0.0, []
            for text in texts:
                state = game.state_from_text(text)
                t = time.process_time()
                tree = Tree(state)
                MCTS(UniformEvaluator(), seed=1).search([tree], sims)
                cpu += time.process_time() - t
                seen.append(tree.visit_counts()[1].tolist())
            us = cpu / (sims * len(texts)) * 1e6
            best[name] = min(best.get(name, us), us)
            counts[name] = seen
    gm._core = compiled
    return {"measure": "uniform", "cpu_us_a_visit": {k: round(v, 1) for k, v in best.items()},
            "ratio": round(best["python"] / best["compiled"], 2), "same_visits": counts["python"] == counts["compiled"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=800)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--measure", nargs="+", choices=("model", "uniform"), default=["model", "uniform"])
    ap.add_argument("--source", choices=("selfplay", "random"), default="selfplay")
    ap.add_argument("--rule", choices=("freestyle", "standard", "renju"), default="freestyle")
    args = ap.parse_args()
    global RULE
    RULE = args.rule
    texts = (selfplay_positions if args.source == "selfplay" else positions)(args.positions, args.seed)
    ok = True
    for what in args.measure:
        result = (measure_model if what == "model" else measure_uniform)(texts, args.sims, args.rounds)
        result.update(rule=args.rule, source=args.source, positions=len(texts), sims=args.sims, rounds=args.rounds)
        print(json.dumps(result), flush=True)
        ok = ok and result.get("same_moves", True) and result.get("same_visits", True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
