"""The background trainer the app uses: continued self-play training of one game in a child
process, with a CPU budget (worker count), progress events, and improved models saved to
the user's data directory (the shipped model is never touched).
"""
from __future__ import annotations

import multiprocessing as mp
import os
import queue as queue_mod
import traceback
from pathlib import Path

from ..core.processes import end_process
from ..core.runlock import RunDirLocked

#: every this many generations the newest network plays the model in use; it is saved
#: for the player only when it scores at least PROMOTE_SCORE over PROMOTE_GAMES games
PROMOTE_EVERY = 2
PROMOTE_GAMES = 20
PROMOTE_SCORE = 0.55


#: once the process that started the trainer is gone, how long the trainer may take to reach a
#: safe point and stop by itself before it ends at once (every file it writes is written
#: atomically, so even that loses at most the generation in progress)
ORPHAN_GRACE_SECONDS = 30.0


def _watch_parent(on_orphaned) -> None:
    """Call ``on_orphaned()`` in a thread once this process's parent has ended, however it
    ended (a kill -9 included): the pipe behind ``parent_process().sentinel`` closes then."""
    import threading
    parent = mp.parent_process()
    if parent is None:
        return

    def wait():
        parent.join()
        on_orphaned()
    threading.Thread(target=wait, name="parent-watch", daemon=True).start()


def _damage(exc: BaseException, run_dir, game_key: str) -> str | None:
    """Why a training failed when a file it needs is damaged: "run_damaged" (the run folder's
    state or one of its networks cannot be read), "model_damaged" (the player's trained model
    cannot be read); None for any other failure. The app offers to set such files aside."""
    from ..core.checkpoint import CheckpointError
    from .train import RunStateError
    if isinstance(exc, RunStateError):
        return "run_damaged"
    if isinstance(exc, CheckpointError):
        from ..core.paths import user_model_path
        text = str(exc)
        if text.startswith(f"{user_model_path(game_key)}:"):
            return "model_damaged"
        if text.startswith(str(Path(run_dir)) + os.sep):
            return "run_damaged"
    return None


def _run_init(run_dir) -> str:
    """The model the run in ``run_dir`` started from, as its run.json records it ("random" when
    it records none or cannot be read)."""
    from ..core.safefile import UnreadableFile, read_json, user_path
    try:
        info = read_json(user_path("run settings", run_dir), "run_info")
    except UnreadableFile:
        return "random"
    init = info.get("init") if isinstance(info, dict) else None
    return init if isinstance(init, str) and init else "random"


def _trainer_main(game_key: str, run_dir: str, init_model, workers: int, events, stop_event, config_path=None,
                  baseline_model=None):
    """Child-process entry point (top level: spawn-safe). It stops at the next safe point when
    ``stop_event`` is set or when the process that started it ends. ``config_path``: settings
    over the game's own (`load_config`), or None. ``baseline_model``: the model the player uses
    while the user has no trained one (the shipped model), which a new network must beat to be
    saved; ``init_model`` when None (a resumed run has no ``init_model``, but its baseline stays)."""
    import os
    import threading
    orphaned = threading.Event()
    holder = {}

    def emit(e):
        if orphaned.is_set():
            return  # nobody reads the queue any more: a full pipe must not block the way out
        try:
            events.put(e)
        except Exception:
            pass

    def on_orphaned():
        orphaned.set()
        try:
            events.cancel_join_thread()  # leaving must not wait for the dead reader
        except Exception:
            pass
        if "run" in holder:
            holder["run"].request_stop()
        try:
            stop_event.set()
        except Exception:
            pass
        # a safe point is normally reached within a second or two; never outlive the app for long
        if not finished.wait(ORPHAN_GRACE_SECONDS):
            os._exit(3)

    finished = threading.Event()
    _watch_parent(on_orphaned)
    try:
        from games import game_from_key
        from ..play.arena import play_match
        from ..core.checkpoint import load_network, save_checkpoint
        from ..core.config import load_config
        from ..core.evaluators import NetworkEvaluator
        from ..core.network import configure_threads
        from ..core.paths import user_model_path
        from ..play.players import MCTSPlayer
        from .train import TrainingRun
        configure_threads(1)
        game = game_from_key(game_key)
        user_path = user_model_path(game.key)
        # the model the player uses now: the user's newest if any, else the shipped one (a resumed run too)
        baseline = baseline_model or init_model
        best_path = user_path if user_path.exists() else (Path(baseline) if baseline else None)

        class Stop(Exception):
            pass

        def check_stop(*_):
            if stop_event.is_set():
                raise Stop()

        def on_event(e):
            nonlocal best_path
            emit(e)
            g = e.get("generation", 0)
            if e.get("type") != "progress" or g % PROMOTE_EVERY:
                return
            run = holder["run"]
            net, _ = load_network(run.ckpt_path(g), game)
            if best_path is None or not best_path.exists():
                better, score = True, None
            else:
                best, _ = load_network(best_path, game)
                a = MCTSPlayer(game, NetworkEvaluator(net), sims=50, temperature=1.0, temperature_plies=4)
                b = MCTSPlayer(game, NetworkEvaluator(best), sims=50, temperature=1.0, temperature_plies=4)
                try:
                    r = play_match(game, a, b, PROMOTE_GAMES, on_game=check_stop)
                except Stop:
                    return
                score = r.score
                better = score >= PROMOTE_SCORE
                emit({"type": "log", "message": f"generation {g} vs the model in use: {r.wins}-{r.draws}-{r.losses}"})
            if better:
                target = user_path
                save_checkpoint(target, net, game, generation=g,
                                evaluation={"vs_previous_model": score} if score is not None else {},
                                extra={"trained_from": trained_from})
                emit({"type": "model", "path": str(target), "generation": g, "score": score})
                best_path = target

        cfg = load_config(game, config_path) if config_path else None
        run = TrainingRun(game, run_dir, cfg=cfg, workers=workers, init_model=init_model, progress=False,
                          on_event=on_event)
        holder["run"] = run
        # what the run's first network was (run.json's "init"): a resumed run has no init_model
        trained_from = str(init_model) if init_model else _run_init(run_dir)
        if orphaned.is_set() or stop_event.is_set():
            run.request_stop()

        def watch():
            stop_event.wait()
            run.request_stop()
        threading.Thread(target=watch, daemon=True).start()
        emit({"type": "log", "message": f"training {game.key} in {run_dir} from generation {run.state['generation']}"})
        run.run(hours=24 * 365)
        emit({"type": "stopped", "generation": run.state["generation"]})
    except RunDirLocked as e:  # a second trainer on one folder: a plain message, nothing written
        emit({"type": "error", "message": str(e), "reason": "run_locked"})
    except Exception as e:  # report, never die silently
        damage = _damage(e, run_dir, game_key)
        emit({"type": "error", "message": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc(),
              **({"reason": damage} if damage else {})})
    finally:
        finished.set()


class BackgroundTrainer:
    """start() / stop() / poll() continued training of one game, in a child process."""

    def __init__(self, game_id: str, workers: int = 1, model_path=None, variant: dict | None = None,
                 run_dir=None):
        from games import get_game
        from ..core.paths import shipped_model_path, shipped_train_config_path, user_data_dir, user_model_path
        self.game = get_game(game_id, **(variant or {}))
        self.workers = max(1, int(workers))
        if model_path is None:
            user = user_model_path(self.game.key)
            model_path = user if user.exists() else shipped_model_path(self.game.key)
        self.model_path = model_path
        # a trained network goes on with the settings its line ended with (models/<game>.train.toml:
        # a small learning rate, the self-play kept by comparisons); from a random network, the game's
        self.config_path = shipped_train_config_path(self.game.key) if model_path else None
        self.run_dir = Path(run_dir) if run_dir else user_data_dir() / "runs" / self.game.key
        self._ctx = mp.get_context("spawn")
        self._proc = None
        self._events = None
        self._stop = None

    @property
    def is_running(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    def start(self) -> None:
        if self.is_running:
            return
        self._events = self._ctx.Queue()
        self._stop = self._ctx.Event()
        init = str(self.model_path) if self.model_path else None
        if os.path.lexists(self.run_dir / "state.json"):
            init = None  # resume the run where it stopped
        self._proc = self._ctx.Process(target=_trainer_main, name=f"trainer-{self.game.key}", daemon=False,
                                       args=(self.game.key, str(self.run_dir), init, self.workers,
                                             self._events, self._stop,
                                             str(self.config_path) if self.config_path else None,
                                             str(self.model_path) if self.model_path else None))
        self._proc.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Ask the run to stop at the next move boundary; kill it if it does not within ``timeout``."""
        if self._proc is None:
            return
        self._stop.set()
        end_process(self._proc, timeout)

    def poll(self) -> list[dict]:
        """Events since the last call (never blocks)."""
        out = []
        if self._events is None:
            return out
        while True:
            try:
                out.append(self._events.get_nowait())
            except (queue_mod.Empty, OSError, EOFError, ValueError):
                break
        if self._proc is not None and not self._proc.is_alive() and self._proc.exitcode not in (0, None):
            out.append({"type": "error", "message": f"the trainer process ended with code {self._proc.exitcode}"})
            self._proc = None
        return out
