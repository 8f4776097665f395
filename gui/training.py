"""The background-training controller: runs `engine.trainer.BackgroundTrainer` in a host
process (see `gui.ai_worker.trainer_main`) and keeps its progress for the Train scene.

It lives on the App, not on the scene, so training goes on while the person plays.
"""
from __future__ import annotations

import multiprocessing
import os
import queue
import re
import time

from engine.core.parallel import usable_cores
from engine.core.processes import end_process
from gui.ai_worker import TRAINER_FACTORY, trainer_main

MAX_POINTS = 2000
MAX_LOG = 200
#: the most self-play workers the automatic choice takes (a person may choose more in Settings)
MAX_AUTO_WORKERS = 8
#: the reasons of a trainer's error that a damaged file in the user data folder caused
DAMAGE_REASONS = ("run_damaged", "model_damaged")


def default_workers(cores: int | None = None) -> int:
    """Self-play workers (one core each) training uses unless the person chose: half the
    usable cores, at least 1 and at most `MAX_AUTO_WORKERS`.

    Training runs in the background for hours while the person plays, and a game's AI searches
    on every core but one by default (`engine.core.parallel.default_threads`). Half the cores
    leaves the other half to that search and the window (on 2 or 3 cores: one worker, one core
    left free), so a game against the AI keeps most of its speed even where priorities do
    little; the workers also run below the AI's priority (`gui.ai_worker.trainer_main`). Each
    worker is a process with its own torch and network (about 300 MB measured for tic-tac-toe),
    and a generation's 48 to 200 games are shared among the workers, so more than eight cost
    memory for little gain by default. The trainer's learning step uses as many threads."""
    cores = usable_cores() if cores is None else max(1, cores)
    return max(1, min(cores // 2, MAX_AUTO_WORKERS))


def workers_for(setting, cores: int | None = None) -> int:
    """The self-play workers for the ``train_workers`` setting: 0 (automatic) or anything that
    is not a whole number is `default_workers`; other counts are kept to 1..the usable cores (a
    settings file written on a larger machine asks for more than this one has)."""
    cores = usable_cores() if cores is None else max(1, cores)
    if isinstance(setting, bool) or not isinstance(setting, int) or setting == 0:
        return default_workers(cores)
    return max(1, min(setting, cores))


class TrainController:
    def __init__(self, factory_spec: str = TRAINER_FACTORY):
        self.factory_spec = factory_spec
        self.game_id: str | None = None
        self.status = "idle"  # idle | starting | running | stopping | error
        self.message = ""
        #: why the last training failed when a file it needs is damaged: "run_damaged" or
        #: "model_damaged" (the scene then offers `set_aside_damaged`); None otherwise
        self.damage: str | None = None
        self.started_at = 0.0
        #: the self-play workers (cores) of the run in progress or the last one started
        self.workers = 1
        self.points: list[dict] = []  # progress events, oldest first
        self.log: list[str] = []
        self.models: list[dict] = []  # {"path", "generation"} as new models arrive
        self.selfplay: dict = {}  # the running generation's self-play: {"generation", "games", "of"}
        self.announcements: list = []  # {"generation", "score"} of newly saved models, for the app to announce
        self._ctx = multiprocessing.get_context("spawn")
        self._process = None
        self._commands = None
        self._events = None

    @property
    def running(self) -> bool:
        return self.status in ("starting", "running", "stopping")

    def start(self, game_id: str, workers: int = 1) -> None:
        """Train ``game_id`` in a host process with ``workers`` self-play workers (the Train
        scene passes the ``train_workers`` setting's count, `workers_for`); nothing while a
        training runs."""
        if self.running:
            return
        self.game_id = game_id
        self.workers = max(1, int(workers))
        try:
            from games import get_game
            history = run_history(get_game(game_id).key)
        except Exception:
            history = []
        self.points, self.log, self.models, self.selfplay = history, [], [], {}
        self._stop_requested = 0
        self.message, self.damage = "", None
        self._commands = self._ctx.Queue()
        self._events = self._ctx.Queue()
        # not a daemon: the trainer starts processes of its own
        self._process = self._ctx.Process(target=trainer_main, name="zeroboard-trainer",
                                          args=(game_id, self._commands, self._events, self.workers,
                                                self.factory_spec))
        try:
            self._process.start()
        except Exception as e:
            self.status, self.message, self._process = "error", f"could not start training: {e}", None
            return
        self.status = "starting"
        self.started_at = time.monotonic()
        unpacking = _unpacks_first()
        if unpacking:
            self.log.append(f"unpacking the trainer's library ({unpacking / 1e6:.0f} MB), once")

    def stop(self) -> None:
        if self._process is None:
            return
        if self.status in ("starting", "running"):
            self.status = "stopping"
            self._stop_requested = time.monotonic()
            try:
                self._commands.put_nowait("stop")
            except Exception:
                pass

    def poll(self) -> int:
        """Take the host's events (never blocks); notice when it has ended. Returns how many
        things changed (events taken, the process ending)."""
        if self._events is None:
            return 0
        taken = 0
        for _ in range(500):
            try:
                ev = self._events.get_nowait()
            except queue.Empty:
                break
            except Exception:
                break
            if isinstance(ev, dict):
                self._take(ev)
                taken += 1
        p = self._process
        if p is not None and not p.is_alive():
            taken += 1
            if self.status not in ("error",):
                self.status = "idle"
            stopping = getattr(self, "_stop_requested", 0) and self.status in ("idle", "stopping")
            if p.exitcode not in (0, None) and not self.message and not stopping:
                self.status, self.message = "error", f"the training process stopped (exit code {p.exitcode})"
            self._release()
        elif p is not None and self.status == "stopping" and time.monotonic() - getattr(self, "_stop_requested", 0) > 20:
            p.terminate()  # the trainer did not stop by itself
        return taken

    def load_history(self, game_key: str, game_id: str | None = None) -> None:
        """The run's earlier generations (its metrics.jsonl), so the charts survive a restart.
        ``game_id`` another game than the last one trained: that game's log, models and error
        are left behind (they were not this game's)."""
        if self.running:
            return
        if game_id is not None and game_id != self.game_id:
            self.log, self.models, self.selfplay = [], [], {}
            if self.status == "error":
                self.status, self.message, self.damage = "idle", "", None
            self.game_id = game_id
        self.points = run_history(game_key)

    def _take(self, ev: dict) -> None:
        kind = ev.get("type")
        if kind == "started":
            if self.status == "starting":
                self.status = "running"
        elif kind == "progress":
            if self.status == "starting":
                self.status = "running"
            point = {k: ev.get(k) for k in ("games", "generation", "positions", "loss", "elo", "wall_seconds")}
            point["t"] = time.monotonic() - self.started_at
            self.selfplay = {}
            self.points.append(point)
            del self.points[:-MAX_POINTS]
        elif kind == "selfplay":
            if self.status == "starting":
                self.status = "running"
            self.selfplay = {k: ev.get(k) for k in ("generation", "games", "of")}
        elif kind == "model":
            self.models.append({"path": ev.get("path"), "generation": ev.get("generation")})
            self.announcements.append({"generation": ev.get("generation"), "score": ev.get("score")})
            self.log.append(f"new model: generation {ev.get('generation')}")
        elif kind == "log":
            self.log.append(str(ev.get("message", "")))
        elif kind == "error":
            message = str(ev.get("message", "training failed"))
            if self.status == "stopping" and _killed_on_stop(message):
                self.log.append(message)  # the trainer was ended because it was asked to stop: no error
            else:
                self.status, self.message = "error", message
                reason = ev.get("reason")
                self.damage = reason if reason in DAMAGE_REASONS else None
                self.log.append("error: " + self.message)
        elif kind == "stopped":
            if self.status != "error":
                self.status = "idle"
        del self.log[:-MAX_LOG]

    def damaged_path(self):
        """The damaged thing the last training failed on (`damage`): the game's run folder or
        its trained model, in the user data folder; None when none is known."""
        if self.damage not in DAMAGE_REASONS or self.game_id is None:
            return None
        from engine.core.paths import user_data_dir, user_model_path
        from games import get_game
        key = get_game(self.game_id).key
        return user_data_dir() / "runs" / key if self.damage == "run_damaged" else user_model_path(key)

    def set_aside_damaged(self):
        """Move the damaged run folder or trained model out of the way (renamed to
        ``NAME.bak-<timestamp>`` beside it, never deleted) so that training can start afresh;
        the new path, or None when nothing was moved (the error then stays)."""
        from engine.core.safefile import set_aside
        if self.running:
            return None
        path = self.damaged_path()
        if path is None or not os.path.lexists(path):
            return None
        moved = set_aside(path)
        if moved is not None:
            if self.damage == "run_damaged":
                self.points = []   # its generations went with the folder
            self.status, self.message, self.damage = "idle", "", None
        return moved

    def latest(self) -> dict:
        return self.points[-1] if self.points else {}

    def _release(self) -> None:
        for q in (self._commands, self._events):
            if q is not None:
                try:
                    q.cancel_join_thread()
                    q.close()
                except Exception:
                    pass
        self._commands = self._events = None
        self._process = None

    def close(self, timeout: float = 15.0) -> None:
        """Stop training when the app closes. The window is already gone by then, so this may
        wait for the trainer to stop cleanly (killing it early could orphan its own workers);
        SIGTERM and kill are the last resorts."""
        p = self._process
        if p is None:
            return
        try:
            self._commands.put_nowait("stop")
        except Exception:
            pass
        end_process(p, timeout, term_wait=3.0)
        self._release()
        self.status = "idle"


def _killed_on_stop(message: str) -> bool:
    """The messages of a trainer process ended by a signal (SIGTERM, SIGKILL) while stopping."""
    m = re.search(r"(?:ended with code|exit code) (-?\d+)", message)
    return bool(m) and int(m.group(1)) in (-15, -9, 143, 137)


def run_history(game_key: str) -> list[dict]:
    """The progress points of the game's training run so far, from its metrics.jsonl
    (user data folder, runs/<game>/); [] when there is none or it cannot be read."""
    from engine.core.paths import user_data_dir
    from engine.core.safefile import UnreadableFile, read_json_lines, user_path
    try:   # a pipe, a huge file, bad bytes or deep nesting: no history, never a hang or a crash
        lines, _ = read_json_lines(user_path("run metrics", user_data_dir() / "runs" / game_key), "metrics")
    except UnreadableFile:
        return []
    points = [{k: d.get(k) for k in ("games", "generation", "positions", "loss", "elo", "wall_seconds")}
              for d in lines if isinstance(d, dict)]
    return points[-MAX_POINTS:]


#: the trainer's English messages and the catalogue keys that say them in the interface language
LOG_PATTERNS = (
    (re.compile(r"^(?:error: )?the run folder (.+) is being trained by (?:process \d+|another process); "
                r"stop that training first or choose another run folder$"), "train.log.busy", ("folder",)),
    (re.compile(r"^generation (\d+) vs the model in use: (\d+)-(\d+)-(\d+)$"), "train.log.match",
     ("generation", "wins", "draws", "losses")),
    (re.compile(r"^training (\S+) in (.+) from generation (\d+)$"), "train.log.start", ("game", "folder", "generation")),
    (re.compile(r"^new model: generation (\S+)$"), "train.log.model", ("generation",)),
    (re.compile(r"^(?:error: )?the trainer process ended with code (-?\d+)$"), "train.log.exit", ("code",)),
    (re.compile(r"^(?:error: )?the training process stopped \(exit code (-?\d+)\)$"), "train.log.exit", ("code",)),
    (re.compile(r"^generation (\d+) done$"), "train.log.done", ("generation",)),
    (re.compile(r"^unpacking the trainer's library \((\d+) MB\), once$"), "train.log.unpacking", ("mb",)),
    # a damaged run folder or trained model (the Train scene offers to set it aside)
    (re.compile(r"^(?:error: )?RunStateError: (.*)$"), "train.log.run_damaged", ("detail",)),
    (re.compile(r"^(?:error: )?CheckpointError: (.+[/\\]checkpoints[/\\]gen_\d+\.pt): .*$"), "train.log.run_damaged",
     ("path",)),
    (re.compile(r"^(?:error: )?CheckpointError: (.+?\.pt): .*$"), "train.log.model_unreadable", ("path",)),
    (re.compile(r"^error: (.*)$"), "train.log.error", ("message",)),
    (re.compile(r"^could not start training: (.*)$"), "train.log.cannot_start", ("message",)),
)


def translated(line: str) -> str:
    """A log line or error message in the interface language (technical details kept as they are)."""
    from gui.i18n import t
    for pattern, key, names in LOG_PATTERNS:
        m = pattern.match(line)
        if m:
            fields = dict(zip(names, m.groups()))
            if "game" in fields:      # the game's name, not its internal key
                fields["game"] = _game_name(fields["game"])
            if key == "train.log.model_unreadable" and _trained_model(fields["path"]):
                key = "train.log.model_damaged"
            return t(key, **fields)
    return line


def _trained_model(path: str) -> bool:
    """Whether ``path`` is one of the player's trained models (the user data folder's models/)."""
    from pathlib import Path
    try:
        from engine.core.paths import user_data_dir
        return Path(path).parent == user_data_dir() / "models"
    except Exception:
        return False


def damaged_trained_model(error: str, model_path) -> bool:
    """Whether the AI's ``error`` says the trained model it was asked to play (``model_path``)
    cannot be read: its file is damaged (`engine.core.checkpoint.CheckpointError`)."""
    return bool(model_path) and str(error).startswith(f"CheckpointError: {model_path}:")


def _unpacks_first() -> int:
    """Bytes of torch's library the packaged app unpacks before this first training (0: none)."""
    try:
        from engine.core.packedlib import bundle_lib_dir, pending
        from engine.core.paths import resource_root, user_cache_dir
        return pending(bundle_lib_dir(resource_root()), user_cache_dir())
    except Exception:
        return 0


def _game_name(key: str) -> str:
    from gui.i18n import has, t
    game_id = key.split("-")[0]
    return t(f"game.{game_id}") if has(f"game.{game_id}") else key


def announcement(model: dict) -> str:
    """What the app says when training saved a model: that it beat the model in use, by how
    much, when the trainer measured it; else only that a model was saved (the first one of a
    run is saved without a match, and is no stronger than the shipped model for that)."""
    from gui.i18n import t
    score = model.get("score") if isinstance(model, dict) else None
    generation = model.get("generation") if isinstance(model, dict) else model
    if isinstance(score, (int, float)) and 0 <= score <= 1:
        return t("train.new_model", generation=generation, score=round(100 * score))
    return t("train.new_model_first", generation=generation)
