"""The processes that run the AI and the background trainer, away from the window's process.

This is the only module of the GUI that touches `engine.play.players` and `engine.training.trainer`
(and with them the network runtime: ONNX Runtime, or torch where it is faster and to train),
and it does so only inside the child processes' entry functions, so importing it costs nothing.
Both entry functions are top-level and take only picklable arguments, as the ``spawn`` start
method requires.

Search protocol (dicts over multiprocessing queues):

    request   {"type": "search", "id", "game_id", "variant", "position_text", "level",
               "model_path", "session", "extras", "threads", "clock"}
              (threads: search threads, 0 or absent: every core but one, at least one;
               clock, optional: the AI's game clock {"remaining", "increment", "periods",
               "period", "moves", "sent"}: seconds left when ``sent`` (time.monotonic) went by,
               from which the search's time is planned, see `clock_search_budget`)
              {"type": "prepare", ...the search's fields}  (load the player, search nothing: a
               timed game asks before its clocks start, so no clock pays for loading a model)
              {"type": "cancel", "id"}        {"type": "shutdown"}
    reply     {"type": "ready", "pid"}        {"type": "fatal", "message"}
              {"type": "heartbeat"}  (every HEARTBEAT_INTERVAL s while the worker's loop is alive)
              {"type": "progress", "id", "fraction", "top", "value", "proven", "sims"}
              {"type": "result", "id", "action", "value", "proven", "top", "sims", "seconds",
               "pv", "policy", "planned"}   (pv: {action: [the line after it]}, policy: [[action,
                                  prior]]; only when the request asked for "extras"; planned: the
                                  seconds the clock allowed, with a clock)
              {"type": "cancelled", "id"}     {"type": "error", "id", "message"}
              {"type": "prepared", "id", "seconds"}

``top`` is a list of ``{"action", "visits", "q", "prior"}`` dicts, most visited first;
``value`` is for the player to move in the searched position. A new search request
arriving while one runs ends the running one (it replies "cancelled").
"""
from __future__ import annotations

import importlib
import os
import queue
import time
import traceback
from collections import deque

DEFAULT_FACTORY = "engine.play.players:make_player"
PROGRESS_INTERVAL = 0.1  # seconds between progress replies
#: seconds between looks at the request pipe during a search. Each look is a system call that lets
#: go of the GIL for a moment and takes it straight back; done on every call of should_stop (every
#: millisecond or so), it kept the heartbeat and the reply queue's feeder thread from ever getting
#: the GIL, and the window heard nothing for 10 s (CPython counts the quick re-take as a switch, so
#: a waiting thread never asks for the GIL to be handed over)
REQUEST_CHECK_INTERVAL = 0.02
MAX_PLAYERS = 6  # players (with their networks) kept loaded for quick reuse
HEARTBEAT_INTERVAL = 1.0  # seconds between heartbeats, the window's watchdog listens for them
#: a loop that has not moved for this long sends no heartbeat (the window then restarts the worker)
STUCK_SECONDS = 20.0


def _heartbeat(replies, alive: list) -> None:
    """Tell the window every second that this process still works: while ``alive[0]`` (the
    main loop's last sign of life, None while starting up) is recent. A frozen process
    (SIGSTOP, a deadlock, an endless loop) goes quiet, and the window's watchdog notices."""
    while True:
        time.sleep(HEARTBEAT_INTERVAL)
        if alive[0] is not None and time.monotonic() - alive[0] > STUCK_SECONDS:
            continue
        try:
            replies.put({"type": "heartbeat"})
        except Exception:
            return


def _load(spec: str):
    module_name, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _parent_alive() -> bool:
    import multiprocessing
    parent = multiprocessing.parent_process()
    return parent is None or parent.is_alive()


def _proven(result) -> float | None:
    """The search's proof of the position (+1, 0 or -1 for the player to move), or None."""
    p = getattr(result, "proven", None)
    return None if p is None else float(p)


def _top_list(result, limit: int = 12) -> list[dict]:
    out = []
    for m in list(getattr(result, "top", None) or [])[:limit]:
        try:
            out.append({"action": int(m.action), "visits": int(m.visits),
                        "q": float(m.q), "prior": float(getattr(m, "prior", 0.0))})
        except (AttributeError, TypeError, ValueError):
            continue
    return out


def _tree_extras(player, top: list[dict], depth: int = 8) -> dict:
    """What the search tree adds for hints that teach: each top move's principal variation
    (the most visited line after it) and the network's prior over every legal move.
    Empty when the player keeps no tree (a rollout or a test double)."""
    tree = getattr(player, "tree", None)
    if tree is None or not hasattr(tree, "edges"):
        return {}
    try:
        actions, visits, _, priors, kids = tree.edges(0)
        policy = [[int(a), round(float(p), 4)] for a, p in zip(actions, priors)]
        child_of = {int(a): int(k) for a, k in zip(actions, kids)}
        pv = {}
        for m in top[:5]:
            line = []
            node = child_of.get(int(m["action"]), -1)
            while node >= 0 and len(line) < depth:
                a, n, _, _, k = tree.edges(node)
                if len(a) == 0 or n.max() <= 0:
                    break
                j = int(n.argmax())
                line.append(int(a[j]))
                node = int(k[j])
            pv[str(m["action"])] = line
        return {"policy": policy, "pv": pv}
    except Exception:  # a tree of another shape: hints go on without the extras
        return {}


def _search_threads(asked) -> int:
    """The search threads for a request's ``threads`` (0, absent or unusable: every core but one)."""
    from engine.core.parallel import default_threads
    from engine.play.players import parse_threads
    if asked in (None, 0):
        return default_threads()
    try:
        return parse_threads(asked)
    except ValueError:
        return default_threads()


def _set_threads(player, threads: int) -> None:
    """Let ``player`` search on ``threads`` threads, where it searches at all (a test double may not)."""
    mcts = getattr(player, "mcts", None)
    if mcts is not None and hasattr(mcts, "threads"):
        mcts.threads = threads


def clock_search_budget(clock, received: float, now: float | None = None) -> float | None:
    """Seconds the search may take, from a request's ``clock`` (None: no clock, or one that
    cannot be read): `engine.play.clock.clock_budget` (with the clock's ``lag``, what the window
    measured a move to cost besides its search, when larger than the default) less the time gone
    since the window sent the request (the queue), or since this process received it when the
    window's time stamp is implausible."""
    planned = planned_budget(clock)
    if planned is None:
        return None
    from engine.play.clock import BUDGET_FLOOR
    now = time.monotonic() if now is None else now
    spent = now - received
    try:
        since_sent = now - float(clock.get("sent"))
        if 0 <= since_sent < 600:
            spent = since_sent
    except (TypeError, ValueError):
        pass
    return max(BUDGET_FLOOR, planned - max(0.0, spent))


def planned_budget(clock) -> float | None:
    """`engine.play.clock.clock_budget` for a request's ``clock``; None when it cannot be read."""
    if not isinstance(clock, dict):
        return None
    from engine.play.clock import BUDGET_LAG, clock_budget
    try:
        remaining = float(clock.get("remaining", 0.0))
        increment = float(clock.get("increment", 0.0) or 0.0)
        periods = int(clock.get("periods", 0) or 0)
        period = float(clock.get("period", 0.0) or 0.0)
        moves = int(clock.get("moves", 20) or 20)
    except (TypeError, ValueError):
        return None
    try:
        lag = min(5.0, max(BUDGET_LAG, float(clock.get("lag", BUDGET_LAG))))
    except (TypeError, ValueError):
        lag = BUDGET_LAG
    if not all(x == x and 0 <= x < 1e6 for x in (remaining, increment, period)) or not 0 <= periods < 100:
        return None
    if lag != lag:
        lag = BUDGET_LAG
    return clock_budget(remaining, increment, moves, period, periods, lag=lag)


def _takes_budget(player) -> bool:
    """Whether ``player.choose`` plans to a clock's budget (a test double may not)."""
    import inspect
    try:
        return "budget" in inspect.signature(player.choose).parameters
    except (TypeError, ValueError):
        return False


def _short_error(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) < 300 else text[:297] + "..."


def worker_main(requests, replies, factory_spec: str = DEFAULT_FACTORY) -> None:
    """Entry point of the AI process: answer search requests until told to shut down."""
    from engine.core.processes import lower_priority
    lower_priority(4)  # the window's process keeps priority so frames stay smooth (Windows too)
    import threading
    alive: list = [None]  # monotonic time of the main loop's last sign of life
    threading.Thread(target=_heartbeat, args=(replies, alive), name="heartbeat", daemon=True).start()
    factory = None
    factory_error = None
    try:
        factory = _load(factory_spec)
        try:  # load the network runtime now, while the person looks at the first screens, not at the first AI move
            from engine.core.runtime import preload
            preload()
        except Exception:
            pass
    except Exception as exc:  # the engine may be missing or broken; report, keep answering
        factory_error = _short_error(exc)
        replies.put({"type": "fatal", "message": factory_error})
    else:
        replies.put({"type": "ready", "pid": os.getpid()})

    from games import get_game

    pending: deque = deque()
    dropped: set = set()
    players: dict = {}
    sessions: dict = {}

    while True:
        alive[0] = time.monotonic()
        if pending:
            msg = pending.popleft()
        else:
            try:
                msg = requests.get(timeout=0.5)
            except queue.Empty:
                if not _parent_alive():
                    return
                continue
            except (EOFError, OSError):
                return
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "shutdown":
            return
        if kind == "cancel":
            dropped.add(msg.get("id"))
            continue
        if kind not in ("search", "prepare"):
            continue
        rid = msg.get("id")
        received = time.monotonic()
        if rid in dropped:
            dropped.discard(rid)
            replies.put({"type": "cancelled", "id": rid})
            continue
        if factory is None:
            replies.put({"type": "error", "id": rid, "message": f"AI engine unavailable: {factory_error}"})
            continue
        try:
            game = get_game(msg["game_id"], **(msg.get("variant") or {}))
            state = game.state_from_text(msg.get("position_text", ""))
            if state.is_terminal() and kind == "search":
                replies.put({"type": "error", "id": rid, "message": "the game is over"})
                continue
            model_path = msg.get("model_path")
            try:  # a model file replaced by the trainer is loaded afresh
                stamp = os.path.getmtime(model_path) if model_path else None
            except OSError:
                stamp = None
            key = (game.key, msg.get("level"), model_path, stamp)
            player = players.pop(key, None)
            if player is None:
                player = factory(game, level=msg.get("level"), model_path=model_path)
            players[key] = player  # most recently used last
            while len(players) > MAX_PLAYERS:
                players.pop(next(iter(players)))
            _set_threads(player, _search_threads(msg.get("threads")))
            if sessions.get(key) != msg.get("session"):
                sessions[key] = msg.get("session")
                if hasattr(player, "reset"):
                    player.reset()
        except Exception as exc:
            replies.put({"type": "error", "id": rid, "message": _short_error(exc)})
            continue
        if kind == "prepare":
            replies.put({"type": "prepared", "id": rid, "seconds": time.monotonic() - received})
            continue

        stop = {"flag": False, "orphaned": False}
        last_progress = [0.0]
        last_check = [0.0]

        def should_stop() -> bool:
            now = alive[0] = time.monotonic()
            if stop["flag"] or now - last_check[0] < REQUEST_CHECK_INTERVAL:
                return stop["flag"]
            last_check[0] = now
            if not _parent_alive():   # the window's process is gone (a crash, kill -9): nobody waits for this
                stop["flag"] = stop["orphaned"] = True
                return True
            while True:
                try:
                    other = requests.get_nowait()
                except (queue.Empty, EOFError, OSError):
                    break
                okind = other.get("type") if isinstance(other, dict) else None
                if okind == "cancel":
                    if other.get("id") == rid:
                        stop["flag"] = True
                    else:
                        dropped.add(other.get("id"))
                elif okind in ("search", "shutdown"):
                    pending.append(other)  # a newer request supersedes this one
                    stop["flag"] = True
                elif okind == "prepare":
                    pending.append(other)  # answered after this search
            return stop["flag"]

        def on_progress(fraction, partial=None) -> None:
            now = time.monotonic()
            if now - last_progress[0] < PROGRESS_INTERVAL:
                return
            last_progress[0] = now
            try:
                replies.put({"type": "progress", "id": rid, "fraction": float(fraction),
                             "top": _top_list(partial), "value": float(getattr(partial, "value", 0.0)),
                             "proven": _proven(partial),
                             "sims": int(getattr(partial, "sims", 0))})
            except Exception:
                pass

        budget = clock_search_budget(msg.get("clock"), received)
        try:
            if budget is not None and _takes_budget(player):
                result = player.choose(state, on_progress=on_progress, should_stop=should_stop, budget=budget)
            else:
                result = player.choose(state, on_progress=on_progress, should_stop=should_stop)
        except Exception as exc:
            replies.put({"type": "error", "id": rid, "message": _short_error(exc),
                         "trace": traceback.format_exc(limit=6)})
            continue
        if stop["orphaned"]:
            return
        if stop["flag"]:
            replies.put({"type": "cancelled", "id": rid})
            continue
        top = _top_list(result)
        replies.put({"type": "result", "id": rid, "action": int(result.action),
                     "value": float(getattr(result, "value", 0.0)), "proven": _proven(result),
                     "top": top,
                     "sims": int(getattr(result, "sims", 0)),
                     "seconds": float(getattr(result, "seconds", 0.0)),
                     **({"planned": planned_budget(msg.get("clock"))} if budget is not None else {}),
                     **(_tree_extras(player, top) if msg.get("extras") else {})})


TRAINER_FACTORY = "engine.training.trainer:BackgroundTrainer"


def trainer_main(game_id: str, commands, events, workers: int = 1,
                 factory_spec: str = TRAINER_FACTORY, variant: dict | None = None) -> None:
    """Entry point of the training host: run a BackgroundTrainer and relay its events.

    Not a daemon (the trainer starts its own child processes); it stops the trainer
    when told to, on SIGTERM, or when the app's process is gone.
    """
    import signal

    def _terminate(signum, frame):
        raise SystemExit(0)

    try:
        signal.signal(signal.SIGTERM, _terminate)
    except (ValueError, OSError):
        pass
    # below the window and the AI (nice 4): the trainer and its self-play workers inherit it
    from engine.core.processes import lower_priority
    lower_priority(8)
    trainer = None
    try:
        try:
            kwargs = {"variant": variant} if variant else {}
            trainer = _load(factory_spec)(game_id, workers=workers, **kwargs)
            trainer.start()
        except Exception as exc:
            events.put({"type": "error", "message": _short_error(exc)})
            return
        events.put({"type": "started", "game_id": game_id})
        while True:
            try:
                cmd = commands.get(timeout=0.25)
            except queue.Empty:
                cmd = None
            except (EOFError, OSError):
                cmd = "stop"
            if cmd == "stop" or not _parent_alive():
                break
            try:
                for ev in trainer.poll() or []:
                    if isinstance(ev, dict):
                        events.put(ev)
            except Exception as exc:
                events.put({"type": "error", "message": _short_error(exc)})
                break
            if not getattr(trainer, "is_running", True):
                break
    finally:
        if trainer is not None:
            try:
                trainer.stop()
            except Exception:
                pass
            try:
                for ev in trainer.poll() or []:
                    if isinstance(ev, dict):
                        events.put(ev)
            except Exception:
                pass
        try:
            events.put({"type": "stopped"})
        except Exception:
            pass
