"""Self-play worker processes: top-level functions, so that spawn pools and Ray actors can run them."""
from __future__ import annotations

import os

from ..core.selfplay import SamplesBatch

_worker_queue = None
_worker_stop = None


def attach(queue, stop_event) -> None:
    """Where this process's self-play reports finished games (``queue``) and looks for a stop."""
    global _worker_queue, _worker_stop
    _worker_queue, _worker_stop = queue, stop_event


def init_pool_worker(queue, stop_event):
    attach(queue, stop_event)
    from ..core.network import configure_threads
    configure_threads(1)
    import threading
    threading.Thread(target=_exit_with_parent, daemon=True).start()


def _exit_with_parent():
    """End this pool worker when the training process is gone (killed), instead of waiting
    forever for work that will not come."""
    import multiprocessing
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()
        os._exit(0)


def selfplay_evaluator(checkpoint, game, sp):
    """(evaluator, metadata) for self-play with the settings ``sp``: the measured runtime, or
    for a win/draw/loss network with ``draw_winner`` the torch one that scores draws so;
    remembering ``sp.memory`` evaluations."""
    evaluator, meta = _selfplay_evaluator(checkpoint, game, sp)
    return evaluator.remember(sp.memory), meta


def _selfplay_evaluator(checkpoint, game, sp):
    from ..core.runtime import load_model_evaluator
    from ..core.checkpoint import load_network
    if sp.draw_winner >= 0:
        from ..core.evaluators import NetworkEvaluator
        net, meta = load_network(checkpoint, game)   # one read: the file tells whether it is one
        if net.cfg.wdl:
            precision = sp.precision if sp.precision in ("fp32", "bf16") else "auto"
            return NetworkEvaluator(net, precision=precision, draw_winner=sp.draw_winner), meta
    # the measured runtime (torch float32 or bfloat16, or ONNX Runtime), exported in memory:
    # a run's many checkpoints need no .onnx files beside them
    return load_model_evaluator(checkpoint, game, purpose="selfplay", batch=sp.parallel_games * sp.leaf_batch,
                                precision=sp.precision, keep_export=False)


def selfplay_job(game_key: str, checkpoint: str, settings: dict, n_games: int, seed: int):
    """Play ``n_games`` with the network in ``checkpoint``; returns (samples arrays, stats dict)."""
    from games import game_from_key
    from ..core.config import SelfPlaySettings
    from ..core.network import configure_threads
    from ..core.selfplay import play_games
    configure_threads(1)
    game = game_from_key(game_key)
    sp = SelfPlaySettings(**settings)

    def done(rec):
        if _worker_queue is not None:
            _worker_queue.put(("game", len(rec.planes)))

    stop = (lambda: _worker_stop.is_set()) if _worker_stop is not None else None
    evaluator, meta = selfplay_evaluator(checkpoint, game, sp)
    # the final boards are kept only for a network that learns them (``[net] ownership``)
    ownership = bool((meta.get("net") or {}).get("ownership", False))
    material = bool((meta.get("net") or {}).get("material", False))   # likewise the final material
    records, stats = play_games(game, evaluator, sp, n_games, seed=seed, on_game_done=done, should_stop=stop,
                                ownership=ownership, material=material)
    stats.runtime = getattr(evaluator, "runtime", "")
    # a win/draw/loss head learns the real outcome of a game scored by draw_winner
    real_draws = bool((meta.get("net") or {}).get("wdl", False))
    planes = (meta.get("net") or {}).get("in_planes") or game.num_planes
    batch = SamplesBatch.from_records(records, (planes, *game.board_shape), sp.value_q_weight,
                                      real_draws=real_draws)
    return batch.arrays(), stats.__dict__
