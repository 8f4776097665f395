"""A narrower network distilled from a game's shipped one (issue 57, "a different width/depth at
equal strength"; first for xiangqi, docs/runs/xiangqi-narrow-2026-12-02/). Self-play only: the positions come from games the shipped network plays
against itself (each move sampled from its priors, one move in ten uniformly at random so that
the positions a search wanders into are there too), and the targets are the shipped network's
own outputs (its move probabilities over the legal moves and its value). No outside engine
chooses a move or a target.

    python tools/distil.py gen   [--game G] --out DATA.npz --positions 200000 --seed 11
    python tools/distil.py train [--game G] --data DATA.npz [MORE.npz ...] --blocks 4 --channels 48 --out STUDENT.pt \
                           --epochs 6 --seed 1 [--hours H] [--threads N]

``gen --search-visits V`` also searches every kept position with the shipped network as the
app plays it (``model:models/G.pt@V?rt=fp32``, a fresh tree each time) and stores the search's
root visit shares (a proven win: its winning move alone) and root value beside the raw outputs;
``train --policy-target search`` and ``--value-target search`` learn those instead of the raw
ones (the teacher's searched outputs, gomoku 2026-12-04: docs/runs/gomoku-narrow-2026-12-04/).

``gen --student S.pt`` plays the games between the student and the shipped network instead of
the shipped network against itself (the student takes one side of each game, black and white in
turn, and samples its moves from its own raw priors the same way), so that the positions its own
play leads to are there; every kept position, whoever is to move, still gets the shipped network's
outputs as its targets (on-policy distillation, as DAgger: docs/runs/gomoku-onpolicy-2026-12-04/).

The game defaults to xiangqi, whose students of 2026-12-02 these commands rebuild unchanged.

``train`` prints a JSON line an epoch: the held-out positions' (the last 5,000, or --held-out)
agreement with the teacher's raw first choice over the legal moves, their mean difference from
the value learnt (raw or searched), and CPU seconds.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HELD_OUT = 5000   # the default of --held-out


def teacher_evaluator(game, path=None):
    """The shipped network (or the checkpoint at ``path``) in ONNX Runtime float32."""
    from engine.core.checkpoint import load_network
    from engine.core.onnxnet import OrtEvaluator, export_bytes, session
    net, _ = load_network(path or ROOT / "models" / f"{game.key}.pt", game)
    return OrtEvaluator(session(export_bytes(net)))


def legal_cap(game) -> int:
    """How many legal moves a kept position may have: 128 for xiangqi (nearly every position;
    the rest are skipped), every action where a game has at most 256 (gomoku's 225 cells)."""
    return game.action_size if game.action_size <= 256 else 128


def generate(args) -> None:
    from engine.play.arena import random_openings
    from games import get_game
    game = get_game(args.game)
    ev = teacher_evaluator(game)
    cap = legal_cap(game)
    rng = np.random.default_rng(args.seed)
    n, parallel = args.positions, 256
    planes = np.zeros((n,) + ev.encode(game.initial_state()).shape, np.float16)
    legal_idx = np.full((n, cap), -1, np.int16)
    legal_logit = np.zeros((n, cap), np.float16)
    values = np.zeros(n, np.float32)
    searcher = None
    if args.search_visits:
        from engine.commands.specs import player_from_spec
        searcher = player_from_spec(game, f"model:models/{game.key}.pt@{args.search_visits}?rt=fp32",
                                    seed=args.seed, opening_plies=0)
        visit_share = np.zeros((n, cap), np.float16)
        search_values = np.zeros(n, np.float32)
    student = teacher_evaluator(game, args.student) if args.student else None
    # the side the student plays in each of the parallel games (0: it moves first); a slot's
    # next game gives it the other side
    side = np.arange(parallel) % 2

    def new_game():
        # the empty board, or --opening-stones uniformly random moves as the matches' openings
        if not args.opening_stones:
            return game.initial_state()
        return random_openings(game, 1, args.opening_stones, seed=int(rng.integers(2 ** 31)))[0]

    states = [new_game() for _ in range(parallel)]
    # keep one position in ``keep`` so that neighbouring positions of one game rarely both appear
    keep, k, t0 = 3, 0, time.process_time()
    while k < n:
        legal = [s.legal_actions() for s in states]
        batch = np.stack([ev.encode(s) for s in states])
        logits, vals = ev.infer(batch)
        s_logits = student.infer(batch)[0] if student is not None else None
        nxt = []
        for i, (s, acts) in enumerate(zip(states, legal)):
            acts = np.asarray(acts)
            lg = logits[i, acts].astype(np.float64)
            if k < n and rng.random() < 1.0 / keep and len(acts) <= cap:
                planes[k] = batch[i]
                legal_idx[k, :len(acts)] = acts
                legal_logit[k, :len(acts)] = lg
                values[k] = vals[i]
                if searcher is not None:
                    visit_share[k, :len(acts)], search_values[k] = searched(searcher, s, acts)
                k += 1
            if student is not None and s.current_player == side[i]:
                lg = s_logits[i, acts].astype(np.float64)
            if rng.random() < args.random_moves:
                a = int(acts[rng.integers(len(acts))])
            else:
                if args.temperature != 1.0:
                    lg = lg / args.temperature
                p = np.exp(lg - lg.max())
                a = int(acts[rng.choice(len(acts), p=p / p.sum())])
            child = s.apply(a)
            if child.is_terminal():
                child, side[i] = new_game(), 1 - side[i]
            nxt.append(child)
        states = nxt
    extra = {"visit_share": visit_share, "search_values": search_values} if searcher is not None else {}
    np.savez(args.out, planes=planes, legal_idx=legal_idx, legal_logit=legal_logit, values=values, **extra)
    print(json.dumps({"positions": n, "cpu_s": round(time.process_time() - t0, 1), "seed": args.seed,
                      "search_visits": args.search_visits, "student": args.student,
                      "random_moves": args.random_moves, "temperature": args.temperature,
                      "opening_stones": args.opening_stones}))


def searched(player, state, acts) -> tuple[np.ndarray, float]:
    """The search's move shares over ``acts`` (in their order) and its root value for the mover:
    a proven win puts everything on the move that wins; a search that visited nothing (a root
    proven at once) leaves the shares at zero, and training then falls back on the raw policy."""
    player.reset()
    result = player.choose(state)
    share = np.zeros(len(acts), np.float32)
    where = {int(a): j for j, a in enumerate(acts)}
    if result.proven == 1.0:
        share[where[int(result.action)]] = 1.0
    else:
        actions, visits = player.tree.visit_counts()
        total = float(np.sum(visits))
        if total > 0:
            for a, v in zip(actions, visits):
                share[where[int(a)]] = v / total
    return share, float(result.value)


def train(args) -> None:
    import torch
    import torch.nn.functional as F
    from engine.core.checkpoint import save_checkpoint, load_network
    from engine.core.network import NetConfig, PolicyValueNet, configure_threads
    from games import get_game
    configure_threads(args.threads)
    torch.manual_seed(args.seed)
    game = get_game(args.game)
    teacher, teacher_meta = load_network(ROOT / "models" / f"{game.key}.pt", game)
    cfg = NetConfig.from_dict({**teacher.cfg.to_dict(), "blocks": args.blocks, "channels": args.channels})
    net = PolicyValueNet(cfg)
    if args.start:
        net, _ = load_network(args.start, game)
    # one data file, or several joined in the order given (the last --held-out positions of the
    # last file are then the held-out ones)
    parts = [np.load(f) for f in args.data]
    keys = ["planes", "legal_idx", "legal_logit", "values"]
    if args.policy_target == "search" or args.value_target == "search":
        keys += ["visit_share", "search_values"]
    d = {k: np.concatenate([p[k] for p in parts]) if len(parts) > 1 else parts[0][k] for k in keys}
    planes = torch.from_numpy(d["planes"])
    idx = torch.from_numpy(d["legal_idx"].astype(np.int64))
    tlogit = torch.from_numpy(d["legal_logit"].astype(np.float32))
    tvalue = torch.from_numpy(d["values"])
    held = args.held_out
    if not 0 < held < len(planes):
        raise SystemExit(f"--held-out must leave positions on both sides: 1 to {len(planes) - 1}, not {held}")
    n = len(planes) - held
    mask = idx >= 0
    safe_idx = idx.clamp(min=0)
    tprob = torch.softmax(tlogit.masked_fill(~mask, -1e9), dim=1)
    if args.policy_target == "search":
        share = torch.from_numpy(d["visit_share"].astype(np.float32)).masked_fill(~mask, 0.0)
        total = share.sum(1, keepdim=True)
        tprob = torch.where(total > 0, share / total.clamp(min=1e-9), tprob)
    if args.value_target == "search":
        tvalue = torch.from_numpy(d["search_values"])
    tfirst = tlogit.masked_fill(~mask, -1e9).argmax(1)   # the teacher's first choice, once
    # the board's symmetries: cell gathers for the planes, and for each the inverse of its action
    # gather, which sends an action of the position to the same action on the transformed board
    syms = game.symmetries()
    cells = [torch.as_tensor(np.asarray(cp, np.int64)) for cp, _ in syms]
    to_sym = [torch.as_tensor(np.argsort(np.asarray(ap)).astype(np.int64)) for _, ap in syms]
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps_per_epoch = n // args.batch
    total = steps_per_epoch * args.epochs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total, pct_start=0.05)
    gen = torch.Generator().manual_seed(args.seed)
    deadline = time.time() + args.hours * 3600 if args.hours else None
    t0 = time.process_time()

    def held_out() -> dict:
        net.eval()
        agree, vdiff = 0, 0.0
        with torch.no_grad():
            for s in range(n, len(planes), 500):
                e = min(len(planes), s + 500)
                logits, v = net(planes[s:e].float())
                sl = logits.gather(1, safe_idx[s:e]).masked_fill(~mask[s:e], -1e9)
                agree += int((sl.argmax(1) == tfirst[s:e]).sum())
                vdiff += float((v - tvalue[s:e]).abs().sum())
        net.train()
        return {"same_first_choice": round(agree / held, 4), "value_diff": round(vdiff / held, 4)}

    step = 0
    for epoch in range(args.epochs):
        order = torch.randperm(n, generator=gen)
        for b in range(steps_per_epoch):
            rows = order[b * args.batch:(b + 1) * args.batch]
            x = planes[rows].float()
            # one symmetry a batch, drawn uniformly (xiangqi: the left-right mirror on half)
            k = min(int(torch.rand(1, generator=gen).item() * len(syms)), len(syms) - 1)
            if k:
                x = x.reshape(len(rows), x.shape[1], -1)[:, :, cells[k]].reshape(x.shape)
                r_idx = to_sym[k][safe_idx[rows]]
            else:
                r_idx = safe_idx[rows]
            logits, v = net(x)
            sl = logits.gather(1, r_idx).masked_fill(~mask[rows], -1e9)
            logp = F.log_softmax(sl, dim=1)
            p = tprob[rows]
            policy_loss = -(p * logp.masked_fill(~mask[rows], 0.0)).sum(1).mean()
            value_loss = F.mse_loss(v, tvalue[rows])
            loss = policy_loss + args.value_weight * value_loss
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if deadline and time.time() > deadline:
                break
        report = {"epoch": epoch + 1, "steps": step, "policy_loss": round(policy_loss.item(), 4),
                  "value_loss": round(value_loss.item(), 5), **held_out(),
                  "cpu_s": round(time.process_time() - t0, 1), "time": time.strftime("%H:%M")}
        print(json.dumps(report), flush=True)
        save_checkpoint(args.out, net, game, generation=0, extra={
            "distilled_from": f"models/{game.key}.pt (generation {teacher_meta.get('generation', 0)})", "data": " ".join(map(str, args.data)),
            "epochs_done": epoch + 1, "settings": vars(args) | {"out": str(args.out)}, **report})
        if deadline and time.time() > deadline:
            break


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["gen", "train"])
    ap.add_argument("--game", default="xiangqi")
    ap.add_argument("--out", required=True)
    ap.add_argument("--positions", type=int, default=200000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--data", nargs="+", help="train: one data file or several, joined in order")
    ap.add_argument("--start")
    ap.add_argument("--blocks", type=int, default=4)
    ap.add_argument("--channels", type=int, default=48)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--value-weight", type=float, default=2.0)
    ap.add_argument("--hours", type=float, default=0.0)
    ap.add_argument("--threads", type=int, default=1, help="learning threads (1: the students of 2026-12-02)")
    ap.add_argument("--held-out", type=int, default=HELD_OUT,
                    help="train: the last this many positions of the last file are held out")
    ap.add_argument("--search-visits", type=int, default=0,
                    help="gen: also search each kept position with this many visits (0: raw outputs only)")
    ap.add_argument("--student", help="gen: a student checkpoint that plays one side of each game")
    ap.add_argument("--random-moves", type=float, default=0.1,
                    help="gen: the share of moves drawn uniformly at random (the rest from the priors)")
    ap.add_argument("--temperature", type=float, default=1.0,
                    help="gen: the priors' temperature for the moves drawn from them (below 1: sharper)")
    ap.add_argument("--opening-stones", type=int, default=0,
                    help="gen: start each game from this many uniformly random moves (0: the empty board)")
    ap.add_argument("--policy-target", choices=["raw", "search"], default="raw",
                    help="train: the teacher's raw move probabilities or its search's visit shares")
    ap.add_argument("--value-target", choices=["raw", "search"], default="raw",
                    help="train: the teacher's raw value or its search's root value")
    args = ap.parse_args()
    if not (0.0 <= args.random_moves <= 1.0 and args.temperature > 0 and args.opening_stones >= 0):
        raise SystemExit("--random-moves must lie in [0, 1], --temperature be positive, --opening-stones not negative")
    generate(args) if args.cmd == "gen" else train(args)


if __name__ == "__main__":
    main()
