"""``main.py --selftest [DIR]`` (and ``ZeroBoard --selftest`` in the packaged app): checks without
a display that the app works where it was installed, and prints a JSON summary.

In order, so that the AI's start-up is timed on a quiet process:

1. ``ai_worker``: the GUI's AI process (`gui.ai_client.AIClient`, a spawn-context child — in the
   packaged app a second copy of the executable) plays a whole game of tic-tac-toe.
2. ``models``: every shipped model loads (a game without one falls back to rollout search).
3. ``games``: one quick AI-vs-AI game of each game through the real players.
4. ``learning``: one generation of connect2 training in this process (self-play, Adam, checkpoint).
5. ``background_training``: the GUI's training controller runs connect2 with two self-play
   workers (host process -> trainer process -> process pool) until the pool reports games,
   then stops it; none of those processes may outlive it.
6. ``scenes``: every scene of every game in both languages is drawn off-screen
   (`gui.selftest.render_all_scenes`; kept in DIR when given).
7. ``bundle_unchanged`` (packaged app only): nothing was written next to the executable.

Settings, runs and models go to a temporary ZEROBOARD_HOME, so the person's own files are
never touched; the summary is also appended to the log file. Exit status 0 when every check
passes, 1 otherwise (the failures are listed in the summary and on stderr); ``warnings`` lists
what passed with a blemish.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
import traceback
from pathlib import Path

AI_TIMEOUT = 240.0        # seconds for the AI process to answer its first move (it loads torch)
TRAINING_TIMEOUT = 420.0  # seconds for the background trainer to finish one connect2 generation


class CheckFailed(Exception):
    """A check that failed but has details worth keeping in the summary."""

    def __init__(self, message: str, details: dict):
        super().__init__(message)
        self.details = details


def _short(exc: BaseException) -> str:
    """One line for the summary: a long multi-line message (numpy's import advice) by its last line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = lines[-1] if len(lines) > 3 else " ".join(lines)
    text = f"{type(exc).__name__}: {text}"
    return text if len(text) <= 300 else text[:297] + "..."


def _progress(message: str) -> None:
    if sys.stderr is not None:
        print(f"selftest: {message}", file=sys.stderr, flush=True)


def process_started_at() -> float:
    """When this process was started (epoch seconds), from /proc where there is one; else now."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[19])  # field 22, starttime, counted after the ")" that ends field 2
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime "))
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration, AttributeError):
        return time.time()


def _process_table() -> dict[int, tuple[int, str, str]]:
    """pid -> (parent pid, state, start time) from /proc (empty where there is none)."""
    table = {}
    try:
        entries = [d for d in Path("/proc").iterdir() if d.name.isdigit()]
    except OSError:
        return table
    for d in entries:
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            table[int(d.name)] = (int(fields[1]), fields[0], fields[19])
        except (OSError, ValueError, IndexError):
            continue
    return table


def descendants() -> set[tuple[int, str]]:
    """(pid, start time) of every living process started below this one."""
    table = _process_table()
    children: dict[int, list[int]] = {}
    for pid, (ppid, state, _) in table.items():
        if state != "Z":
            children.setdefault(ppid, []).append(pid)
    out, todo = set(), [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            if (child, table[child][2]) not in out:
                out.add((child, table[child][2]))
                todo.append(child)
    return out


def _still_running(processes: set[tuple[int, str]]) -> list[int]:
    """Those of ``processes`` still alive, except this process's own resource tracker (it lives
    as long as this process does)."""
    table = _process_table()
    me = os.getpid()
    return sorted(pid for pid, started in processes if pid in table and table[pid][2] == started
                  and table[pid][1] != "Z"
                  and not (table[pid][0] == me and "resource_tracker" in _command_line(pid)))


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()[:120]
    except OSError:
        return str(pid)


def _end(pids: list[int]) -> None:
    import signal
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        time.sleep(1.0)


# --- checks ------------------------------------------------------------------------------------

def check_ai_worker(launched_at: float, level: str = "beginner") -> dict:
    """A whole tic-tac-toe game, both sides asked of the GUI's AI process."""
    from games import get_game
    from gui.ai_client import AIClient
    client = AIClient()
    t0 = time.monotonic()
    client.start()
    if client.status == "dead":
        raise RuntimeError(client.message)
    game = get_game("tictactoe")
    state = game.initial_state()
    first_answer = ready = None
    moves = []
    try:
        while not state.is_terminal():
            reply: dict = {}
            rid = client.search(state, level, None, "selftest",
                                lambda msg: reply.update(msg) if msg.get("type") != "progress" else None)
            if rid is None and not reply:
                raise RuntimeError(client.message or "the AI refused the request")
            deadline = time.monotonic() + AI_TIMEOUT
            while not reply:
                client.poll()
                if ready is None and client.status == "ready":
                    ready = time.monotonic() - t0
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no answer from the AI process within {AI_TIMEOUT:.0f} s "
                                       f"(status {client.status}: {client.message})")
                time.sleep(0.005)
            if reply.get("type") != "result":
                raise RuntimeError(f"the AI process answered {reply.get('type')}: {reply.get('message')}")
            action = reply["action"]
            if action not in state.legal_actions():
                raise RuntimeError(f"the AI process chose an illegal move {action}")
            if first_answer is None:
                first_answer = time.time()
            moves.append(state.action_to_text(action))
            state = state.play(action)
    finally:
        client.close()
    w = state.winner()
    return {"process_ready_seconds": round(ready, 2) if ready is not None else None,
            "launch_to_first_ai_move_seconds": round(first_answer - launched_at, 2),
            "moves": moves, "result": "draw" if w is None else f"player {w + 1} won"}


def check_models() -> dict:
    from engine.commands.selftest import check_models as check
    out = check()
    if out["failed"]:
        raise CheckFailed("models that do not load: " + "; ".join(f"{k}: {v}" for k, v in out["failed"].items()),
                          out)
    from engine.core.paths import is_frozen
    unexported = [k for k, v in out["loaded"].items() if not v.get("onnx")]
    if is_frozen() and unexported:   # build.spec exports every shipped model; play would need torch
        raise CheckFailed("shipped models without their ONNX export: " + ", ".join(unexported), out)
    untransformed = [k for k, v in out["loaded"].items() if v.get("winograd") is False]
    if is_frozen() and untransformed:   # build.spec writes them beside the exports; timing would need torch
        raise CheckFailed("shipped models without their Winograd arrays: " + ", ".join(untransformed), out)
    return out


def check_book() -> dict:
    """Connect Four's opening book (games/data) is there and reads whole: the max level plays
    the opening from it."""
    from games import connect4
    try:
        book = connect4.parse_book(connect4.BOOK_PATH.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise RuntimeError(f"Connect Four's opening book: {e}") from None
    return {"positions": len(book)}


def check_games(sims: int) -> dict:
    from engine.commands.selftest import play_quick_game
    from games import GAME_IDS
    out, failed = {}, []
    for gid in GAME_IDS:
        try:
            out[gid] = play_quick_game(gid, sims=sims)
        except Exception as e:
            out[gid] = {"error": _short(e)}
            failed.append(f"{gid}: {out[gid]['error']}")
            _progress(f"  {gid}: FAILED: {out[gid]['error']}")
            continue
        _progress(f"  {gid}: {out[gid]['result']} ({out[gid]['plies']} plies, {out[gid]['seconds']} s, {out[gid]['ai']})")
    if failed:
        raise CheckFailed("; ".join(failed), out)
    return out


def check_background_training(game_id: str = "connect2", workers: int = 2) -> dict:
    """The GUI's training controller until its self-play pool reports games, then stopped as the
    app stops it; every process it started must be gone afterwards. (Stopping during self-play
    keeps the stop quick: a trainer that takes longer than its 10 s limit is killed.)"""
    from gui.training import TrainController
    before = descendants()
    started: set[tuple[int, str]] = set()
    tc = TrainController()
    t0 = time.monotonic()
    tc.start(game_id, workers=workers)
    pool_games = 0
    try:
        deadline = t0 + TRAINING_TIMEOUT
        while not (tc.points or tc.selfplay.get("games")):
            tc.poll()
            started |= descendants() - before
            if tc.status == "error":
                raise RuntimeError(f"training failed: {tc.message}")
            if tc.status == "idle":
                raise RuntimeError("the trainer stopped by itself")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no self-play game within {TRAINING_TIMEOUT:.0f} s (status {tc.status})")
            time.sleep(0.05)
        pool_games = int(tc.selfplay.get("games") or (tc.points[0].get("games") if tc.points else 0) or 0)
        first_games_at = time.monotonic() - t0
        started |= descendants() - before
        if tc.status == "error":
            raise RuntimeError(f"training failed: {tc.message}")
        t_stop = time.monotonic()
        tc.stop()
        while tc.running and time.monotonic() < t_stop + 60:
            tc.poll()
            time.sleep(0.1)
        stop_seconds = time.monotonic() - t_stop
    finally:
        tc.close()
        wait_until = time.monotonic() + 5.0  # helper processes (resource trackers) end a moment later
        while (leftover := _still_running(started)) and time.monotonic() < wait_until:
            time.sleep(0.2)
        names = [_command_line(pid) for pid in leftover]
        if leftover:
            _end(leftover)  # the self-test never leaves processes behind
    if leftover:
        raise RuntimeError(f"{len(leftover)} training process(es) outlived the app's trainer (ended now: "
                           f"{'; '.join(names)})" + (f"; {tc.message}" if tc.message else ""))
    if not pool_games:
        raise RuntimeError("the self-play pool never reported a game")
    warnings = []
    if tc.status == "error":  # only while stopping: the trainer outlasted its limit and was ended by force
        warnings.append(f"the trainer did not stop in time and was ended by force ({tc.message})")
    return {"game": game_id, "workers": workers, "processes": len(started),
            "first_pool_games_seconds": round(first_games_at, 1), "pool_games_reported": pool_games,
            "stop_seconds": round(stop_seconds, 1), "warnings": warnings}


def check_learning(run_dir: Path) -> dict:
    from engine.commands.selftest import train_one_generation
    return train_one_generation(run_dir)


def check_scenes(out_dir: Path, keep: bool) -> dict:
    from gui.selftest import render_all_scenes
    paths = render_all_scenes(out_dir)
    empty = [p.name for p in paths if not p.exists() or p.stat().st_size == 0]
    if not paths or empty:
        raise RuntimeError(f"scenes not written: {empty or 'none at all'}")
    return {"rendered": len(paths), "folder": str(out_dir) if keep else None}


def _bundle_files() -> dict[str, tuple[int, int]]:
    root = Path(sys.executable).resolve().parent
    out = {}
    for p in root.rglob("*"):
        try:
            if p.is_file():
                st = p.stat()
                out[str(p.relative_to(root))] = (st.st_size, st.st_mtime_ns)
        except OSError:
            continue
    return out


# --- driver ------------------------------------------------------------------------------------

def _torch_library() -> str | None:
    """Where this process loaded torch's operator library from (Linux; None elsewhere or unloaded)."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            for line in f:
                path = line.rstrip("\n").split(maxsplit=5)[-1].removesuffix(" (deleted)")   # the self-test's home is gone
                if path.endswith("/libtorch_cpu.so"):
                    return path
    except OSError:
        pass
    return None


def run(screens_dir: Path | None = None, sims: int = 8, launched_at: float | None = None) -> dict:
    """Run every check and return the summary (``ok`` is True when all passed)."""
    import engine.core.paths as paths
    from engine.core.logsetup import log_path
    launched_at = launched_at or process_started_at()
    frozen = paths.is_frozen()
    summary = {"ok": False, "app": paths.APP_NAME, "version": paths.__version__, "frozen": frozen,
               "python": platform.python_version(), "platform": platform.platform(),
               "executable": sys.executable, "resources": str(paths.resource_root()), "log": str(log_path()),
               "checks": {}, "failures": [], "warnings": []}
    before = _bundle_files() if frozen else None
    t_all = time.perf_counter()
    own_home = os.environ.get("ZEROBOARD_HOME")
    with tempfile.TemporaryDirectory(prefix="zeroboard-selftest-") as home:
        os.environ["ZEROBOARD_HOME"] = home  # inherited by the AI and training processes
        screens = Path(screens_dir) if screens_dir else Path(home) / "screens"
        checks = [("ai_worker", lambda: check_ai_worker(launched_at)),
                  ("models", check_models),
                  ("book", check_book),
                  ("games", lambda: check_games(sims)),
                  ("learning", lambda: check_learning(Path(home) / "learning-run")),
                  ("background_training", check_background_training),
                  ("scenes", lambda: check_scenes(screens, keep=screens_dir is not None))]
        for name, func in checks:
            _progress(f"{name} ...")
            t0 = time.perf_counter()
            try:
                result = {"ok": True, **func()}
            except CheckFailed as e:
                result = {"ok": False, "error": str(e), **e.details}
                summary["failures"].append(f"{name}: {result['error']}")
            except Exception as e:
                result = {"ok": False, "error": _short(e), "traceback": traceback.format_exc()}
                summary["failures"].append(f"{name}: {result['error']}")
            result["seconds"] = round(time.perf_counter() - t0, 2)
            summary["checks"][name] = result
            summary["warnings"] += [f"{name}: {w}" for w in result.get("warnings", [])]
            _progress(f"{name} {'ok' if result['ok'] else 'FAILED: ' + result['error']} ({result['seconds']} s)")
        if own_home is None:
            os.environ.pop("ZEROBOARD_HOME", None)
        else:
            os.environ["ZEROBOARD_HOME"] = own_home
    if "torch" in sys.modules:
        summary["torch"] = sys.modules["torch"].__version__
        library = _torch_library()
        if library:
            summary["torch_library"] = library
        from engine.core.packedlib import CACHE_FOLDER, bundle_lib_dir, packs
        if frozen and packs(bundle_lib_dir(paths.resource_root())):
            # the bundle packs libtorch_cpu.so: training must have run on the copy unpacked into the cache
            ok = library is not None and Path(library).parent.parent.name == CACHE_FOLDER
            summary["checks"]["packed_library"] = {"ok": ok, "loaded": library, "seconds": 0.0}
            if not ok:
                summary["failures"].append(f"packed_library: torch did not load the unpacked library ({library})")
    if frozen:
        after = _bundle_files()
        changed = sorted(k for k, v in after.items() if before.get(k) != v)
        summary["checks"]["bundle_unchanged"] = {"ok": not changed, "written": changed[:20], "seconds": 0.0}
        if changed:
            summary["failures"].append(f"bundle_unchanged: files written next to the executable: {changed[:5]}")
    summary["seconds"] = round(time.perf_counter() - t_all, 1)
    summary["ok"] = not summary["failures"]
    return summary


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="main.py --selftest",
                                description="Check, without a display, that the app works; print a JSON summary.")
    p.add_argument("screens", nargs="?", metavar="DIR", help="keep the rendered scenes in DIR (default: discard)")
    p.add_argument("--sims", type=int, default=8, help="visits per move in the quick games (default 8)")
    args = p.parse_args(argv)
    launched_at = process_started_at()
    os.environ["SDL_VIDEODRIVER"] = "dummy"  # never a window, with or without a display
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    from engine.core.logsetup import log
    log(f"self-test started: {sys.executable} {' '.join(sys.argv[1:])}")
    summary = run(Path(args.screens).resolve() if args.screens else None, args.sims, launched_at)
    text = json.dumps(summary, indent=2, default=str)
    log("self-test summary:\n" + text)
    print(text, flush=True)
    if summary["warnings"]:
        _progress("warnings: " + "; ".join(summary["warnings"]))
    if not summary["ok"]:
        _progress("FAILED: " + "; ".join(summary["failures"]))
    return 0 if summary["ok"] else 1
