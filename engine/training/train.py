"""Self-play training runs: `python main.py train --game G ...`.

One generation = self-play with the current network (K worker processes, each
playing many games at once) -> the samples join the on-disk replay window ->
minibatch training -> a new checkpoint -> evaluation (arena against the previous
generation and against rollout MCTS) -> one metrics line.

Replacement is continuous (AlphaZero), not gated (AlphaGo Zero): every generation
becomes the self-play network. On two cores a gating match big enough to be
trustworthy would cost more than the self-play it protects; the arena against the
previous generation is still played and recorded (it feeds the Elo chain), and the
background trainer only offers a model to the player once it beats the model it
started from.

Every file is written atomically and `state.json` last, so `--resume` after a kill
at any moment continues from the last completed step: a generation's self-play file
that was already saved is reused, never replayed or half-read.
"""
from __future__ import annotations

import argparse
import io
import json
import math
import os
import queue
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

import numpy as np

from ..core.checkpoint import CheckpointError, atomic_write_bytes, load_network, save_checkpoint
from ..core.config import GameConfig, config_from_dict, config_to_dict, load_config
from ..core.processes import end_process
from ..core.progress import Progress, format_seconds, is_terminal
from ..core.replay import ReplayBuffer
from ..core.runlock import RunDirLock, RunDirLocked
from ..core.safefile import UnreadableFile, decode_text, parse_json, read_bytes, read_json, set_aside, user_path
from ..core.selfplay import SamplesBatch, SelfPlayStats
from . import workers as selfplay_workers


class RunStateError(ValueError):
    """A run's state.json that cannot be resumed from; the message names the file and why."""


def read_run_state(path: Path) -> dict:
    """A run's state.json, checked; RunStateError otherwise (the file is kept: it is the run's
    only record of how far it got, and a new run in its folder would write over the old one)."""
    try:
        state = read_json(path, "run_state")
    except UnreadableFile as e:
        raise RunStateError(f"{path} {e}; the run cannot be resumed from it (move the file away to look at "
                            "it, or choose another --run-dir)") from None

    def number(v, whole=False):
        return isinstance(v, int if whole else (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    if (not isinstance(state, dict) or not all(number(state.get(k), True) for k in ("generation", "games", "positions"))
            or not all(number(state.get(k, 0)) for k in ("elo", "wall_seconds", "steps"))):
        raise RunStateError(f"{path} is not a run's state (a JSON object with generation, games, positions, elo "
                            "and wall_seconds as numbers); the run cannot be resumed from it")
    return {"elo": 0.0, "wall_seconds": 0.0, "steps": 0, **state}


def _json_dump_atomic(path: Path, obj) -> None:
    atomic_write_bytes(path, (json.dumps(obj, indent=1) + "\n").encode())


#: how long closing a run waits for idle self-play workers to leave before ending them
POOL_EXIT_SECONDS = 2.0


def wdl_target(z):
    """(win, draw, loss) targets (B, 3) for value targets ``z`` in [-1, 1]: a win, a loss and a
    draw are one-hot, and a mixed or adjudicated target splits so that P(win) - P(loss) = z
    with the rest a draw (0.4 is 0.4 win, 0.6 draw)."""
    import torch
    return torch.stack([z.clamp(min=0.0), 1.0 - z.abs(), (-z).clamp(min=0.0)], dim=1)


class _Stopped(Exception):
    """request_stop() arrived in the middle of learning or evaluation."""


class _Reports:
    """Where self-play in this process reports finished games (the pool's queue, as a call)."""

    def __init__(self, on_game):
        self.on_game = on_game

    def put(self, message) -> None:
        self.on_game(message[1])


#: the most opening plies the generation arena samples (temperature 1) before both sides play
#: their best move. Half the self-play sampling phase, capped: xiangqi's third run sampled all
#: 160 plies in self-play, and an arena that sampled 80 of them measured mostly noise.
ARENA_OPENING_MAX = 8


def arena_opening_plies(temperature_moves: int) -> int:
    return max(2, min(ARENA_OPENING_MAX, temperature_moves // 2))


def time_for_another(now: float, deadline: float | None, gen_times: list[float]) -> bool:
    """Whether a run with ``hours`` should start another generation at ``now``.

    A generation is not cut off once started (its self-play and training belong together), so
    starting one just before the deadline ran a run a whole generation past it (minutes, for
    xiangqi or gomoku), and two arms of a comparison ended unequally late. A generation starts
    only if it is expected to end no more than half a generation past the deadline (expected:
    the median of the last three generations' times), so a run's end lands on its deadline on
    average; the first generation always starts.
    """
    if deadline is None:
        return True
    if now >= deadline:
        return False
    if not gen_times:
        return True
    expected = float(np.median(gen_times[-3:]))
    return now + expected / 2 <= deadline


class TrainingRun:
    """A resumable run in ``run_dir``."""

    def __init__(self, game, run_dir, cfg: GameConfig | None = None, workers: int = 2, init_model=None,
                 backend: str = "local", ray_address: str | None = None, device: str | None = None,
                 progress: bool = True, on_event=None):
        import torch
        self.game = game
        self.dir = Path(run_dir)
        # one writer per run folder, from before the first file is touched until close()
        self._lock = RunDirLock(self.dir)
        self._lock.acquire()
        try:
            self._setup(cfg, workers, init_model, backend, ray_address, device or
                        ("cuda" if torch.cuda.is_available() else "cpu"), progress, on_event)
        except BaseException:
            self._lock.release()
            raise

    def _setup(self, cfg, workers, init_model, backend, ray_address, device, progress, on_event) -> None:
        game = self.game
        run_dir = self.dir
        self.cfg = cfg or load_config(game)
        want = self.cfg.net.in_planes
        if want and want not in game.network_planes:
            earlier = f" or an earlier encoding's {', '.join(map(str, game.legacy_planes))}" if game.legacy_planes else ""
            raise ValueError(f"[net] in_planes = {want}: {game.key} networks read all {game.num_planes} planes (0){earlier}")
        #: the input planes this run's network reads (``[net] in_planes``, 0: all)
        self.in_planes = want or game.num_planes
        self.workers = max(1, int(workers))
        self.backend = backend
        self.ray_address = ray_address
        self.device = device
        self.show_progress = progress   # bars on a terminal, plain lines on stderr otherwise
        self._tb = None                   # enable_tensorboard()
        self.on_event = on_event
        self.ckpt_dir = self.dir / "checkpoints"
        self.state_path = user_path("run state", self.dir)
        self.buffer = ReplayBuffer(self.dir / "buffer", game, self.cfg.train.buffer_positions)
        self.rng = np.random.default_rng()
        self._pool = None
        self._queue = None
        self._stop_event = None
        self._ray = None
        import threading
        self._local_stop = threading.Event()  # has is_set(), like the pool's Event
        if os.path.lexists(self.state_path):   # a link loop there is a damaged state, not a new run
            for leftover in self.dir.rglob("*.tmp"):  # half-written files of a killed run
                leftover.unlink(missing_ok=True)
            self.state = read_run_state(self.state_path)
            if self.state.get("game_key") != game.key:
                raise RunStateError(f"{run_dir}: this run trains {self.state.get('game_key')!r}, not {game.key!r}")
            self._note_config_change()
        else:
            self._create(init_model)

    # --- files ------------------------------------------------------------
    def ckpt_path(self, generation: int) -> Path:
        return user_path("run checkpoint", self.dir, n=generation)

    def _note_config_change(self) -> None:
        """A run resumed with other settings (a changed --config or game config) says so in
        run.json: ``config_changes`` lists each new config and the first generation it made,
        so the run stays reproducible. Settings added to the code since the run began count as
        their defaults, which is what the run used before they existed."""
        path = user_path("run settings", self.dir)
        try:
            info = read_json(path, "run_info")
        except UnreadableFile:
            return
        if not isinstance(info, dict):
            return
        changes = list(info.get("config_changes", []))
        first = self.state["generation"] + 1
        if changes and changes[-1]["from_generation"] == first:
            changes.pop()   # that config made no generation: this one replaces it
        try:
            saved = config_from_dict(self.game, _latest_settings({**info, "config_changes": changes}) or {})[0]
            before = config_to_dict(saved)
        except (ValueError, TypeError, KeyError):
            before = None   # unreadable saved settings: record the current ones
        now = config_to_dict(self.cfg)
        if now != before:
            changes.append({"from_generation": first, "config": now, "at": time.strftime("%Y-%m-%dT%H:%M:%S")})
        if changes != info.get("config_changes", []):
            if changes:
                info["config_changes"] = changes
            else:
                info.pop("config_changes", None)
            _json_dump_atomic(path, info)

    def _create(self, init_model) -> None:
        from ..core.network import NetConfig, PolicyValueNet
        self.dir.mkdir(parents=True, exist_ok=True)
        self.ckpt_dir.mkdir(exist_ok=True)
        if init_model:
            net, _ = load_network(init_model, self.game)
            net = self._upgraded(net)
        else:
            import dataclasses
            n = self.cfg.net
            cfg = NetConfig.for_game(self.game, n.blocks, n.channels, n.value_hidden, n.global_pool,
                                     n.ownership, n.opponent_policy, n.wdl, n.material)
            net = PolicyValueNet(dataclasses.replace(cfg, in_planes=self.in_planes))
        save_checkpoint(self.ckpt_path(0), net, self.game, generation=0, extra={"init": str(init_model or "random")})
        _json_dump_atomic(self.dir / "run.json", {"game_key": self.game.key, "config": config_to_dict(self.cfg),
                                                 "init": str(init_model or "random"),
                                                 "created": time.strftime("%Y-%m-%dT%H:%M:%S")})
        self.state = {"game_key": self.game.key, "generation": 0, "games": 0, "positions": 0,
                      "wall_seconds": 0.0, "elo": 0.0, "steps": 0}
        _json_dump_atomic(self.state_path, self.state)

    def _upgraded(self, net, optimizer: bool = False):
        """``net`` with the layers the settings add (``[net] blocks``, ``global_pool``,
        ``ownership``, ``opponent_policy``, ``wdl``, ``material``, ``in_planes``): a network reading
        fewer input planes gets the others at zero weights, one with fewer residual blocks gets
        the missing ones as identities and one with fewer pooling blocks the missing layers at
        zero, so it computes what it did, and one without an auxiliary head gets a fresh one; with ``optimizer``, the
        saved optimizer state is renumbered to the wider network's parameters, so the trained
        weights keep their Adam moments."""
        from ..core.network import tower_name, with_blocks, with_global_pool, with_input_planes, with_material, \
            with_opponent_policy, with_ownership, with_wdl
        wider = net
        if net.cfg.in_planes > self.in_planes:
            raise ValueError(f"the network reads {net.cfg.in_planes} input planes; [net] in_planes = "
                             f"{self.cfg.net.in_planes} cannot take trained planes away")
        if net.cfg.in_planes < self.in_planes:
            wider = with_input_planes(wider, self.in_planes)
        if self.cfg.net.blocks > wider.cfg.blocks:
            wider = with_blocks(wider, self.cfg.net.blocks)
        want = min(self.cfg.net.global_pool, wider.cfg.blocks)
        if want > net.cfg.global_pool:
            wider = with_global_pool(wider, want)
        if self.cfg.net.ownership and not wider.cfg.ownership:
            wider = with_ownership(wider)
        if self.cfg.net.opponent_policy and not wider.cfg.opponent_policy:
            wider = with_opponent_policy(wider)
        if self.cfg.net.wdl and not wider.cfg.wdl:
            wider = with_wdl(wider)
        if self.cfg.net.material and not wider.cfg.material:
            wider = with_material(wider)
        if wider is net:
            return net
        opt_path = self.dir / "optimizer.pt"
        state = self._saved_optimizer("cpu") if optimizer else None
        if state is not None:
            import torch
            try:
                old = [tower_name(n, net.cfg, wider.cfg) for n, _ in net.named_parameters()]
                params = list(wider.named_parameters())
                new = {n: i for i, (n, _) in enumerate(params)}
                if len(state["param_groups"][0]["params"]) != len(old):
                    raise ValueError("the saved optimizer is not the old network's (renumbered already)")
                # the moments of a layer whose shape changed (a value head made win/draw/loss)
                # start afresh; the others follow their parameters to their new numbers
                state["state"] = {new[old[i]]: st for i, st in state["state"].items()
                                  if not any(torch.is_tensor(v) and v.dim() > 0
                                             and v.shape != params[new[old[i]]][1].shape for v in st.values())}
                state["param_groups"][0]["params"] = list(range(len(new)))
                buf = io.BytesIO()
                torch.save(state, buf)
                atomic_write_bytes(opt_path, buf.getvalue())
            except Exception:
                pass   # renumbered already (a resume after a kill), or _train starts a fresh one
        return wider

    def _emit(self, event: dict) -> None:
        if self.on_event is not None:
            self.on_event(event)

    # --- self-play --------------------------------------------------------------
    def _ensure_pool(self):
        if self.backend == "local" and self.workers == 1:
            return
        if self.backend == "ray":
            if self._ray is None:
                from .ray_backend import RaySelfPlay
                self._ray = RaySelfPlay(self.workers, self.ray_address)
            return
        if self._pool is None:
            import multiprocessing as mp
            ctx = mp.get_context("spawn")
            self._queue = ctx.Queue()
            self._stop_event = ctx.Event()
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=selfplay_workers.init_pool_worker,
                                             initargs=(self._queue, self._stop_event))

    def close(self) -> None:
        """End the self-play workers and give the run folder's lock back."""
        try:
            self._close_workers()
        finally:
            self._lock.release()

    def _close_workers(self) -> None:
        if self._pool is not None:
            # the executor's own shutdown sometimes leaves idle workers waiting for a sentinel
            # that never reaches them (seen on CPython 3.11), and this process then waits for
            # them at exit: give them a moment, then end them (their work is done or cancelled)
            procs = list((getattr(self._pool, "_processes", None) or {}).values())
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            deadline = time.monotonic() + POOL_EXIT_SECONDS
            for p in procs:
                end_process(p, max(0.0, deadline - time.monotonic()), term_wait=1.0)
        if self._ray is not None:
            self._ray.close()
            self._ray = None

    def request_stop(self) -> None:
        self._stop = True
        self._local_stop.set()
        if self._stop_event is not None:
            self._stop_event.set()

    def _selfplay(self, generation: int) -> tuple[SamplesBatch, SelfPlayStats] | None:
        sp = self.cfg.selfplay
        n_games = sp.games_per_generation
        ckpt = str(self.ckpt_path(generation - 1))
        settings = dict(sp.__dict__)
        self._ensure_pool()
        shares = [n_games // self.workers + (1 if i < n_games % self.workers else 0) for i in range(self.workers)]
        seeds = [int(self.rng.integers(1 << 31)) for _ in shares]
        t0 = time.perf_counter()
        bar = Progress(n_games, f"gen {generation} self-play", "games", enabled=self.show_progress)
        counted = {"games": 0, "positions": 0}

        def report(games: int, positions: int) -> None:
            """Games and positions finished so far this generation (from any backend)."""
            before = counted["games"]
            counted.update(games=games, positions=positions)
            dt = time.perf_counter() - t0
            bar.info(f"{positions} positions, {positions / dt if dt > 0 else 0:.0f} pos/s")
            bar.advance_to(games)
            step = max(1, n_games // 10)
            if games // step > before // step or (before == 0 and games > 0):   # the first game, each tenth
                self._emit({"type": "selfplay", "generation": generation, "games": games, "of": n_games})

        def one_game(positions: int) -> None:
            report(counted["games"] + 1, counted["positions"] + positions)

        try:
            if self.backend == "ray":
                results = self._ray.run(self.game.key, ckpt, settings, shares, seeds, on_progress=report,
                                        should_stop=self._local_stop.is_set)
            elif self.workers == 1:
                # one worker: play in this process (no spawn, no copies)
                selfplay_workers.attach(_Reports(one_game), self._local_stop)
                try:
                    results = [selfplay_workers.selfplay_job(self.game.key, ckpt, settings, n_games, seeds[0])]
                finally:
                    selfplay_workers.attach(None, None)
            else:
                futs = [self._pool.submit(selfplay_workers.selfplay_job, self.game.key, ckpt, settings, n, s)
                        for n, s in zip(shares, seeds) if n > 0]
                while not all(f.done() for f in futs):
                    try:
                        kind, npos = self._queue.get(timeout=0.5)
                    except (queue.Empty, OSError, EOFError, ValueError):
                        continue
                    one_game(npos)
                while not self._queue.empty():
                    try:
                        self._queue.get_nowait()
                    except (queue.Empty, OSError, EOFError, ValueError):
                        break
                results = [f.result() for f in futs]
                # reports still in the queue's pipe when the last job returned
                report(sum(st["games"] for _, st in results), sum(len(arrays[3]) for arrays, _ in results))
        finally:
            bar.close()
        if getattr(self, "_stop", False) or results is None:
            return None
        batches, stats = [], SelfPlayStats()
        for arrays, st in results:
            batches.append(SamplesBatch(*arrays))
            s = SelfPlayStats(**st)
            stats.add(s)
        stats.seconds = time.perf_counter() - t0
        return SamplesBatch.concat(batches), stats

    # --- learning ---------------------------------------------------------------
    def _lr(self, generation: int) -> float:
        t = self.cfg.train
        frac = min(1.0, (generation - 1) / max(1, t.lr_decay_generations))
        return t.lr_final + 0.5 * (t.lr - t.lr_final) * (1 + math.cos(math.pi * frac))

    def _train(self, generation: int, net) -> dict:
        import torch
        import torch.nn.functional as F
        t = self.cfg.train
        torch.set_num_threads(max(1, self.workers) if self.device == "cpu" else 1)
        # channels-last: the same arithmetic up to rounding, in the layout oneDNN prefers
        layout = torch.channels_last if t.channels_last else torch.contiguous_format
        net.to(self.device, memory_format=layout).train()
        opt = torch.optim.Adam(net.parameters(), lr=self._lr(generation), weight_decay=t.weight_decay)
        opt_path = self.dir / "optimizer.pt"
        saved = self._saved_optimizer(self.device)
        if saved is not None:
            try:
                opt.load_state_dict(saved)
                for g in opt.param_groups:
                    g["lr"] = self._lr(generation)
            except Exception:
                pass  # a fresh optimizer is a safe fallback (e.g. after a network change)
        totals = {"loss": 0.0, "policy_loss": 0.0, "value_loss": 0.0}
        with_wdl = net.cfg.wdl
        if with_wdl:   # value_loss is then the win/draw/loss cross-entropy; this stays comparable
            totals["value_mse"] = 0.0
        with_own = net.cfg.ownership
        if with_own:
            totals["ownership_loss"] = 0.0
        with_reply = net.cfg.opponent_policy
        if with_reply:
            totals["opponent_policy_loss"] = 0.0
        with_mat = net.cfg.material
        if with_mat:
            totals["material_loss"] = 0.0
        steps = t.steps_per_generation
        bar = self._phase_bar(steps, f"gen {generation} learning", "steps")
        for _ in range(steps):
            bar.update()
            if self._stop:
                bar.close()
                raise _Stopped()  # this generation is redone on resume (its self-play is kept)
            sample = self.buffer.sample(t.batch_size, self.rng, ownership=with_own, reply=with_reply,
                                        material=with_mat)
            planes, policy, z, pw = sample[:4]
            x = torch.from_numpy(planes).to(self.device).contiguous(memory_format=layout)
            pi = torch.from_numpy(policy).to(self.device)
            zt = torch.from_numpy(z).to(self.device)
            w = torch.from_numpy(pw).to(self.device)
            logits, v, *aux = net(x, ownership=with_own, opponent=with_reply, wdl=with_wdl, material=with_mat)
            wdl_out = aux[int(with_own) + int(with_reply)] if with_wdl else None
            pl = -(pi * F.log_softmax(logits, dim=1)).sum(1)
            pl = (pl * w).sum() / w.sum().clamp(min=1.0)
            if with_wdl:
                vl = -(wdl_target(zt) * F.log_softmax(wdl_out, dim=1)).sum(1).mean()
                totals["value_mse"] += F.mse_loss(v.detach(), zt).item()
            else:
                vl = F.mse_loss(v, zt)
            loss = pl + vl
            if with_own:
                # cross-entropy of the owner as a two-way outcome: P(mover) = (1 + tanh(l)) / 2
                # = sigmoid(2 l), against (1 + target) / 2 (an empty cell: one half)
                own_t = (1.0 + torch.from_numpy(sample[4]).to(self.device)) / 2.0
                own_w = torch.from_numpy(sample[5]).to(self.device)
                ol = F.binary_cross_entropy_with_logits(2.0 * aux[0], own_t, reduction="none").mean(dim=(1, 2))
                ol = (ol * own_w).sum() / own_w.sum().clamp(min=1.0)
                loss = loss + t.ownership_weight * ol
                totals["ownership_loss"] += ol.item()
            if with_reply:
                # the opponent's reply: cross-entropy against the next position's policy target
                rt = torch.from_numpy(sample[-2]).to(self.device)
                rw = torch.from_numpy(sample[-1]).to(self.device)
                rl = -(rt * F.log_softmax(aux[int(with_own)], dim=1)).sum(1)
                rl = (rl * rw).sum() / rw.sum().clamp(min=1.0)
                loss = loss + t.opponent_policy_weight * rl
                totals["opponent_policy_loss"] += rl.item()
            if with_mat:
                # the final material balance for the mover (in [-1, 1]): squared error, weighted
                k = 4 + 2 * int(with_own)   # the sample's targets: ownership's, then these
                mt = torch.from_numpy(sample[k]).to(self.device)
                mw = torch.from_numpy(sample[k + 1]).to(self.device)
                ml = ((aux[-1] - mt) ** 2 * mw).sum() / mw.sum().clamp(min=1.0)
                loss = loss + t.material_weight * ml
                totals["material_loss"] += ml.item()
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            totals["loss"] += loss.item()
            totals["policy_loss"] += pl.item()
            totals["value_loss"] += vl.item()
        bar.close()
        net.eval().cpu().to(memory_format=torch.contiguous_format)   # checkpoints and exports as before
        import io
        buf = io.BytesIO()
        torch.save(opt.state_dict(), buf)
        atomic_write_bytes(opt_path, buf.getvalue())
        torch.set_num_threads(1)
        return {k: round(v / max(steps, 1), 5) for k, v in totals.items()} | {"lr": round(self._lr(generation), 6),
                                                                              "steps": steps}

    # --- evaluation --------------------------------------------------------------
    def _evaluate(self, generation: int, net) -> dict:
        from ..play.arena import play_match
        from ..core.evaluators import NetworkEvaluator
        from ..play.players import MCTSPlayer, rollout_player
        t = self.cfg.train
        out = {}
        opening = arena_opening_plies(self.cfg.selfplay.temperature_moves)
        if t.arena_games > 0 and generation > 0:
            prev, _ = load_network(self.ckpt_path(generation - 1), self.game)
            a = MCTSPlayer(self.game, NetworkEvaluator(net), sims=t.arena_sims, temperature=1.0,
                           temperature_plies=opening)
            b = MCTSPlayer(self.game, NetworkEvaluator(prev), sims=t.arena_sims, temperature=1.0,
                           temperature_plies=opening)
            with self._phase_bar(t.arena_games, f"gen {generation} vs previous", "games") as bar:
                r = play_match(self.game, a, b, t.arena_games, on_game=self._counting_stop(bar))
            out["vs_previous"] = r.to_dict()
        if t.baseline_games > 0 and generation % max(1, t.baseline_every) == 0:
            a = MCTSPlayer(self.game, NetworkEvaluator(net), sims=t.arena_sims, temperature=1.0,
                           temperature_plies=opening)
            b = rollout_player(self.game, t.baseline_playouts)
            with self._phase_bar(t.baseline_games, f"gen {generation} vs rollout", "games") as bar:
                r = play_match(self.game, a, b, t.baseline_games, on_game=self._counting_stop(bar))
            out["vs_rollout"] = r.to_dict() | {"playouts": t.baseline_playouts}
        return out

    def _check_stop(self, *_) -> None:
        if self._stop:
            raise _Stopped()

    def _phase_bar(self, total: int, desc: str, unit: str) -> Progress:
        """A bar for learning and evaluation: on a terminal only (in a log, the generation's
        summary line says the same once)."""
        return Progress(total, desc, unit, enabled=self.show_progress and is_terminal(sys.stderr))

    def _counting_stop(self, bar: Progress):
        def on_game(i, r) -> None:
            bar.info(f"+{r.wins} ={r.draws} -{r.losses}")
            bar.update()
            self._check_stop()
        return on_game

    def _say(self, text: str) -> None:
        """A line on stderr (a generation's summary), unless progress is off."""
        if self.show_progress and sys.stderr is not None:
            print(text, file=sys.stderr, flush=True)

    # --- the loop --------------------------------------------------------------------
    def run(self, hours: float | None = None, generations: int | None = None) -> dict:
        """Train until ``hours`` pass or ``generations`` more complete (or request_stop())."""
        from ..core.network import configure_threads
        configure_threads(1)
        self._lock.acquire()  # held since __init__, unless an earlier run() gave it back
        self._stop = False
        deadline = time.time() + hours * 3600 if hours else None
        target_gen = self.state["generation"] + generations if generations else None
        metrics_path = user_path("run metrics", self.dir)
        self._trim_metrics(metrics_path)
        gen_times = []
        try:
            while not self._stop:
                g = self.state["generation"] + 1
                if target_gen is not None and g > target_gen:
                    break
                if not time_for_another(time.time(), deadline, gen_times):
                    break
                t_gen = time.perf_counter()
                new = None
                if self.buffer.has(g):
                    # played before an interruption: reuse the games, and count them
                    try:
                        new = ReplayBuffer.read(self.buffer.path_for(g))
                    except Exception as e:   # damaged: set aside, and the generation's games played again
                        self.buffer.set_aside(g, e)
                if new is not None:
                    saved = self.buffer.read_stats(g)   # None: written before statistics were kept
                    try:
                        sp_stats = SelfPlayStats(**saved) if saved else None
                    except TypeError:   # statistics of another version
                        sp_stats = None
                else:
                    res = self._selfplay(g)
                    if res is None:
                        break
                    new, sp_stats = res
                    self.buffer.save(g, new, stats=asdict(sp_stats))
                n_buf = self.buffer.load(up_to=g, planes=self.in_planes)
                net, _ = load_network(self.ckpt_path(g - 1), self.game)
                net = self._upgraded(net, optimizer=True)
                try:
                    if n_buf >= self.cfg.train.min_buffer:
                        losses = self._train(g, net)
                    else:
                        losses = {"skipped": f"buffer {n_buf} < min_buffer {self.cfg.train.min_buffer}"}
                    save_checkpoint(self.ckpt_path(g), net, self.game, generation=g)
                    evaluation = self._evaluate(g, net)
                except _Stopped:
                    break
                elo = self.state["elo"] + evaluation.get("vs_previous", {}).get("elo", 0.0)
                dt = time.perf_counter() - t_gen
                gen_times.append(dt)
                self.state.update(generation=g, games=self.state["games"] + (sp_stats.games if sp_stats else 0),
                                  positions=self.state["positions"] + len(new),
                                  wall_seconds=round(self.state["wall_seconds"] + dt, 1), elo=round(elo, 1),
                                  steps=self.state["steps"] + losses.get("steps", 0))
                line = {"generation": g, "games": self.state["games"], "positions": self.state["positions"],
                        "buffer": n_buf, **{k: v for k, v in losses.items()}, "elo": self.state["elo"],
                        "arena": evaluation, "wall_seconds": self.state["wall_seconds"],
                        "generation_seconds": round(dt, 1)}
                if self.buffer.skipped:   # samples of a network from before the run widened its input
                    line["buffer_other_planes"] = self.buffer.skipped
                if sp_stats is not None:
                    line["selfplay"] = {"games": sp_stats.games, "positions": sp_stats.positions,
                                        "plies": sp_stats.plies, "wins": sp_stats.wins, "draws": sp_stats.draws,
                                        "resigned": sp_stats.resigned, "false_resign": sp_stats.false_resign,
                                        "resign_checked": sp_stats.resign_checked,
                                        "adjudicated": sp_stats.adjudicated, "sims": sp_stats.sims,
                                        "seconds": round(sp_stats.seconds, 1),
                                        "positions_per_s": round(sp_stats.positions / max(sp_stats.seconds, 1e-9), 1)}
                    if sp_stats.runtime:
                        line["selfplay"]["runtime"] = sp_stats.runtime
                    if self.cfg.selfplay.material_adjudicate > 0:   # games ended by a lasting lead, and their check
                        line["selfplay"].update(lead_won=sp_stats.lead_won, lead_checked=sp_stats.lead_checked,
                                                false_lead=sp_stats.false_lead)
                with open(metrics_path, "a") as f:
                    f.write(json.dumps(line) + "\n")
                    f.flush()
                    os.fsync(f.fileno())
                shutil.copyfile(self.ckpt_path(g), self.dir / "latest.pt.tmp")
                os.replace(self.dir / "latest.pt.tmp", self.dir / "latest.pt")
                _json_dump_atomic(self.state_path, self.state)
                self._tensorboard(line)
                left = ""
                if target_gen is not None:
                    left = f", ETA {format_seconds(np.mean(gen_times) * (target_gen - g))}"
                elif deadline is not None:
                    left = f", {format_seconds(deadline - time.time())} left"
                vp = evaluation.get("vs_previous", {})
                vr = evaluation.get("vs_rollout", {})
                self._say(f"gen {g}" + (f"/{target_gen}" if target_gen is not None else "") +
                          f": {self.state['games']} games, {self.state['positions']} positions, "
                          f"loss {losses.get('loss', '-')}, vs prev {vp.get('score', '-')}, "
                          f"vs rollout {vr.get('score', '-')}, Elo {self.state['elo']}, {dt:.0f}s{left}")
                self._emit({"type": "progress", **line})
        finally:
            self.close()
        return self.state

    def _trim_metrics(self, path: Path) -> None:
        """Drop metrics lines of generations that did not complete (a kill after the append). A
        file with lines that are no metrics (bad bytes, not JSON, nested too deeply), or that is
        no regular file or far too large, is set aside as it was (``metrics.jsonl.bak-<time>``,
        one line on stderr) and the readable lines go on in a new one: nothing is lost."""
        try:
            raw = read_bytes(path, "metrics")
        except UnreadableFile as e:
            if e.damaged:
                self._set_file_aside(path, str(e))
            return
        keep, bad = [], 0
        for line in raw.splitlines():
            if not line.strip():
                continue
            try:
                generation = parse_json(decode_text(line))["generation"]
                if not isinstance(generation, int):
                    raise TypeError
            except (UnreadableFile, KeyError, TypeError, IndexError):
                bad += 1
                continue
            if generation <= self.state["generation"]:
                keep.append(line)
        if bad:
            self._set_file_aside(path, f"has {bad} line{'s' if bad != 1 else ''} that are not metrics")
        atomic_write_bytes(path, b"\n".join(keep) + b"\n" if keep else b"")

    def _saved_optimizer(self, device):
        """The optimizer state saved in optimizer.pt, or None when there is none or it cannot be
        read; such a file is set aside (kept), so the fresh one saved after this generation does
        not write over it."""
        path = user_path("run optimizer", self.dir)
        try:
            data = read_bytes(path, "optimizer")
        except UnreadableFile as e:
            if e.damaged:
                self._set_file_aside(path, str(e))
            return None
        import torch
        try:
            return torch.load(io.BytesIO(data), map_location=device, weights_only=True)
        except Exception as e:   # truncated, corrupt, or holding more than tensors
            self._set_file_aside(path, f"cannot be read ({type(e).__name__})")
            return None

    def _set_file_aside(self, path: Path, problem: str) -> None:
        backup = set_aside(path)
        print(f"note: {path} {problem}; " + (f"kept as {backup.name}, a new one is written"
                                             if backup else "it could not be moved aside"), file=sys.stderr)

    def enable_tensorboard(self, log_dir) -> None:
        """Also write each generation's figures as TensorBoard scalars under ``log_dir``; raises
        `TensorBoardMissing` (saying how to install it) when the optional package is absent."""
        from .tensorboard_log import TensorBoardLog
        self._tb = TensorBoardLog(log_dir)

    def _tensorboard(self, line: dict) -> None:
        tb = getattr(self, "_tb", None)
        if tb is None:
            return   # not asked for: metrics.jsonl has every figure
        try:
            tb.add_generation(line)
        except OSError as e:   # a full disk or a removed folder must not end the run
            self._say(f"tensorboard: cannot write to {tb.log_dir}: {e}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="main.py train", description="Train a game's AI by self-play.")
    p.add_argument("--game", required=True)
    p.add_argument("--size", type=int, help="board size for games with variants (othello, gomoku)")
    p.add_argument("--rule", choices=("freestyle", "standard", "renju"),
                   help="gomoku's rule set (default freestyle): a run trains the network for its own game "
                        "key (gomoku-renju, gomoku-standard), starting from --init or a random network")
    p.add_argument("--run-dir", help="run directory (default runs/<game>)")
    p.add_argument("--hours", type=float,
                   help="train for about this long: a generation starts only if it is expected to end "
                        "no more than half a generation past the deadline")
    p.add_argument("--generations", type=int)
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    p.add_argument("--resume", action="store_true",
                   help="continue the run in --run-dir, with the settings it last used unless --config is given")
    p.add_argument("--init", help="start from this model instead of a random network")
    p.add_argument("--config", help="a TOML file overriding engine/core/configs/<game>.toml (with --resume: the run "
                                     "goes on with these settings, recorded in run.json)")
    p.add_argument("--backend", choices=("local", "ray"), default="local")
    p.add_argument("--ray-address")
    p.add_argument("--device", help="torch device for learning (default: cuda when present, else cpu)")
    p.add_argument("--tensorboard", metavar="DIR",
                   help="also write loss, Elo, games and positions/s of every generation as TensorBoard scalars "
                        "to DIR (needs the optional 'tensorboard' extra)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress on stderr (default: bars on a terminal, plain lines in logs and pipes)")
    return p


def _latest_settings(info: dict):
    """The settings a run's ``run.json`` says it trained with last: its latest config change,
    else the settings it began with."""
    changes = info.get("config_changes") or []
    return changes[-1]["config"] if changes else info.get("config")


def _interrupted(error: BaseException) -> bool:
    """Whether ``error`` was raised from (or while handling) a KeyboardInterrupt."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, KeyboardInterrupt):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def _stop_on_sigterm():
    """Make SIGTERM (``kill PID``) end a command-line run as Ctrl+C does: the run stops where it
    is, its workers and lock are given back, and it says how to resume, where the default action
    would end the process on the spot (its self-play workers' semaphores leaked). A run started
    with ``&`` from a script ignores SIGINT, so SIGTERM is how such a run is stopped. Returns the
    handler it replaced (None when it installed none: not the main thread)."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        return None

    def stop(signum, frame):
        raise KeyboardInterrupt
    return signal.signal(signal.SIGTERM, stop)


def resumed_config(game, run_dir: Path) -> GameConfig:
    """The settings a run last trained with (run.json: its latest ``config_changes`` entry, else
    ``config``), so that ``--resume`` without ``--config`` goes on as it was, whatever
    engine/core/configs/<game>.toml says now."""
    try:
        info = read_json(run_dir / "run.json", "run_info")
    except UnreadableFile as e:
        raise ValueError(f"{run_dir / 'run.json'}: unreadable (it {e}); pass --config to choose settings") from None
    if not isinstance(info, dict):
        raise ValueError(f"{run_dir / 'run.json'} is not a JSON object; pass --config to choose settings")
    if info.get("game_key") not in (None, game.key):
        raise ValueError(f"{run_dir} holds a {info.get('game_key')} run, not {game.key}")
    saved = _latest_settings(info)
    if not isinstance(saved, dict):
        raise ValueError(f"{run_dir / 'run.json'} holds no settings; pass --config to choose them")
    cfg, dropped = config_from_dict(game, saved)
    if dropped:
        print(f"note: settings this version no longer has were ignored: {', '.join(dropped)}", file=sys.stderr)
    return cfg


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from games import get_game
    try:
        if args.rule and args.game != "gomoku":
            raise ValueError(f"--rule is for gomoku; {args.game} has one rule set")
        game = get_game(args.game, **({"size": args.size} if args.size else {}),
                        **({"rule": args.rule} if args.rule else {}))
    except (ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not args.hours and not args.generations:
        print("error: give --hours or --generations", file=sys.stderr)
        return 2
    run_dir = Path(args.run_dir or Path("runs") / game.key)
    if args.resume and (not run_dir.is_dir() or not any(run_dir.iterdir())):
        # a mistyped or empty --run-dir must not quietly start a new run from a random network
        print(f"error: there is no run to resume in {run_dir}; leave out --resume to start one there",
              file=sys.stderr)
        return 2
    if os.path.lexists(run_dir / "state.json") and not args.resume:
        print(f"error: {run_dir} already holds a run; pass --resume to continue it or choose another --run-dir",
              file=sys.stderr)
        return 2
    try:
        if args.resume and args.config is None and os.path.lexists(run_dir / "run.json"):
            cfg = resumed_config(game, run_dir)   # a run goes on with its own settings
        else:
            cfg = load_config(game, args.config)
    except (ValueError, TypeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.tensorboard:
        from .tensorboard_log import TensorBoardMissing, require_tensorboard
        try:
            require_tensorboard()   # before the run starts, not after its first generation
        except TensorBoardMissing as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    try:
        run = TrainingRun(game, run_dir, cfg, workers=args.workers, init_model=args.init, backend=args.backend,
                          ray_address=args.ray_address, device=args.device, progress=not args.quiet)
    except (RunDirLocked, RunStateError, CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.tensorboard:
        run.enable_tensorboard(args.tensorboard)
    previous = _stop_on_sigterm()
    try:
        state = run.run(hours=args.hours, generations=args.generations)
    except KeyboardInterrupt:
        print("\ninterrupted; resume with --resume", file=sys.stderr)
        return 130
    except CheckpointError as e:   # a model file of the run that cannot be read: named, never a traceback
        print(f"error: {e}", file=sys.stderr)
        return 2
    except Exception as e:
        if not _interrupted(e):
            raise
        # Ctrl+C or SIGTERM inside code that wraps what it catches: torch imports its compiler
        # lazily when the first optimizer is made, and an interrupt there comes out as a
        # RuntimeError ("Error calling __set_name__ ...") raised from the KeyboardInterrupt
        print("\ninterrupted; resume with --resume", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            import signal
            signal.signal(signal.SIGTERM, previous)
    print(json.dumps(state))
    return 0
