"""Learning steps on several torch threads, idle and beside other work: OpenMP's waiting policy.

The trainer learns on as many torch threads as it has self-play workers. torch's OpenMP threads
spin while they wait for each other (``OMP_WAIT_POLICY`` unset, i.e. active), which costs
nothing on an idle machine and a great deal on a busy one: a thread that spins waits for a
thread the kernel has taken off the core. This runs the same Adam steps (the shipped model or
``--model``, ``--positions`` positions of its own games, batch ``--batch``) in fresh processes,
one per variant: threads 1 and 2, each with the waiting policy unset and ``PASSIVE``, the
variants taking turns ``--rounds`` times, with ``--load`` processes spinning beside them (0: an
idle machine). Prints, per variant, each round's wall and CPU seconds per step (CPU: the
process's own, ``time.process_time``).

    python benchmarks/training_threads.py --game connect4 --load 0
    python benchmarks/training_threads.py --game connect4 --load 2
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

VARIANTS = (("1", None), ("1", "PASSIVE"), ("2", None), ("2", "PASSIVE"))


def child(args) -> None:
    """One variant's steps in this process (its environment set by the parent); prints a JSON line."""
    import torch
    from learning_steps import own_batch, step

    from engine.core.checkpoint import load_network
    from engine.core.network import configure_threads
    from engine.core.paths import shipped_model_path
    from games import get_game
    configure_threads(1)   # as the trainer's loop does; then its learning sets the threads
    game = get_game(args.game)
    net, _ = load_network(Path(args.model) if args.model else shipped_model_path(game.key), game)
    batch_tensors = own_batch(game, net, args.positions)
    torch.set_num_threads(args.threads)
    net.train()
    opt = torch.optim.Adam(net.parameters(), lr=5e-5, weight_decay=1e-4)

    step(net, opt, batch_tensors, args.batch, 0)   # warm-up: threads started, kernels chosen
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(args.steps):
        step(net, opt, batch_tensors, args.batch, i + 1)
    print(json.dumps({"wall_s_per_step": (time.perf_counter() - wall) / args.steps,
                      "cpu_s_per_step": (time.process_time() - cpu) / args.steps}), flush=True)


def spin(stop) -> None:
    while not stop.is_set():
        sum(range(10000))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="connect4")
    ap.add_argument("--model", help="a checkpoint instead of the shipped model")
    ap.add_argument("--positions", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--load", type=int, default=0, help="processes spinning beside the steps")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--threads", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args)
        return 0
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=spin, args=(stop,), daemon=True) for _ in range(args.load)]
    for p in spinners:
        p.start()
    results: dict[str, list] = {}
    try:
        for _ in range(args.rounds):
            for threads, policy in VARIANTS:
                env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
                if policy:
                    env["OMP_WAIT_POLICY"] = policy
                cmd = [sys.executable, __file__, "--child", "--threads", threads, "--game", args.game,
                       "--positions", str(args.positions), "--batch", str(args.batch), "--steps", str(args.steps)]
                if args.model:
                    cmd += ["--model", args.model]
                out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
                line = json.loads(out.strip().splitlines()[-1])
                results.setdefault(f"threads={threads} wait={policy or 'unset'}", []).append(
                    [round(line["wall_s_per_step"], 4), round(line["cpu_s_per_step"], 4)])
    finally:
        stop.set()
        for p in spinners:
            p.join(timeout=5)
    print(json.dumps({"game": args.game, "date": time.strftime("%Y-%m-%d"), "load": args.load,
                      "batch": args.batch, "steps": args.steps, "cores": os.cpu_count(),
                      "wall_and_cpu_s_per_step_by_round": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
