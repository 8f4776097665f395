"""The engine's part of the app's self-test (`main.py --selftest`, see gui.selftest_run): every
shipped model loads, every game can be played by the real AI players at a low visit count, and
a generation of training completes.
"""
from __future__ import annotations

import time
from pathlib import Path

#: plies after which a self-test game stops: a search-light game of gomoku or xiangqi with
#: the rollout fallback can take minutes to finish, and a few dozen plies exercise the same code
PLY_LIMITS = {"gomoku": 60, "xiangqi": 60}


def check_models(models_dir: Path | None = None) -> dict:
    """Load every ``models/*.pt``; a file that exists but does not load is a failure, a game
    without a model is only listed as missing (its AI falls back to rollout search).

    Returns ``{"loaded": {key: {...}}, "failed": {file: reason}, "missing": [game keys]}``.
    """
    from games import GAME_IDS, game_from_key, get_game
    from ..core.checkpoint import load_network
    from ..core.onnxnet import file_sha256
    from ..core.paths import models_dir as shipped_dir
    folder = Path(models_dir) if models_dir is not None else shipped_dir()
    loaded, failed = {}, {}
    for path in sorted(folder.glob("*.pt")) if folder.is_dir() else []:
        t0 = time.perf_counter()
        try:
            game = game_from_key(path.stem)
            net, meta = load_network(path, game)
            params = sum(p.numel() for p in net.parameters())
            digest = file_sha256(path)
            loaded[path.stem] = {"generation": meta.get("generation"), "parameters": int(params),
                                 "seconds": round(time.perf_counter() - t0, 3), "onnx": _has_onnx(path, game, digest),
                                 "winograd": _has_winograd(path, net, digest)}
        except Exception as e:  # a damaged or mismatched model: the app would show an error
            failed[path.name] = f"{type(e).__name__}: {e}"
    missing = [get_game(g).key for g in GAME_IDS if not (folder / f"{get_game(g).key}.pt").exists()]
    return {"folder": str(folder), "loaded": loaded, "failed": failed, "missing": missing}


def _has_onnx(path: Path, game, digest: str) -> bool:
    """Whether ONNX Runtime can play ``path`` without exporting it (the packaged app's models
    carry their exports; elsewhere the first use makes it)."""
    try:
        from ..core.onnxnet import load_cached
        return load_cached(path, game, digest) is not None
    except Exception:
        return False


def _has_winograd(path: Path, net, digest: str) -> bool | None:
    """Whether the Winograd runtime can play ``path`` from its cached arrays, without torch (the
    packaged app's models carry them; elsewhere the first use makes them); None where that runtime
    does not serve this network here (no compiled module, or a shape it does not compute)."""
    try:
        from ..core import winograd
        if not winograd.supports(net.cfg):
            return None
        return winograd.load_cached(path, digest) is not None
    except Exception:
        return False


def play_quick_game(game_id: str, sims: int = 8, level: str = "beginner", max_plies: int | None = None,
                    seed: int = 0) -> dict:
    """One AI-vs-AI game through `engine.play.players.make_player` (shipped model or the rollout
    fallback) with ``sims`` visits per move; raises if a player fails or plays an illegal move."""
    from games import get_game
    from ..play.arena import play_game
    from ..play.players import make_player
    game = get_game(game_id)
    players = []
    for i in range(2):
        p = make_player(game, level, seed=seed + i)
        p.sims, p.seconds = sims, None  # the level's search, fewer visits, no clock
        players.append(p)
    limit = max_plies if max_plies is not None else PLY_LIMITS.get(game_id)
    t0 = time.perf_counter()
    final, actions = play_game(game, players[0], players[1], max_plies=limit)
    if not actions:
        raise RuntimeError(f"{game.key}: no move was played")
    if final.is_terminal():
        w = final.winner()
        result = "draw" if w is None else ("first player won" if w == 0 else "second player won")
    else:
        result = f"stopped after {len(actions)} plies"
    return {"ai": players[0].description, "plies": len(actions), "result": result,
            "seconds": round(time.perf_counter() - t0, 2)}


def train_one_generation(run_dir: Path, game_id: str = "connect2") -> dict:
    """One generation of `engine.training.train.TrainingRun` in this process (self-play, replay buffer,
    Adam steps, checkpoint) from a fresh network; raises if the loss is not a finite number."""
    import json
    import math
    from games import get_game
    from ..training.train import TrainingRun
    t0 = time.perf_counter()
    run = TrainingRun(get_game(game_id), run_dir, workers=1, progress=False)
    state = run.run(generations=1)
    line = [ln for ln in (Path(run_dir) / "metrics.jsonl").read_text().splitlines() if ln.strip()][-1]
    metrics = json.loads(line)
    loss = metrics.get("loss")
    if state["generation"] != 1 or not isinstance(loss, (int, float)) or not math.isfinite(loss):
        raise RuntimeError(f"training did not complete a generation with a finite loss: {metrics}")
    return {"game": game_id, "games": state["games"], "positions": state["positions"], "steps": state["steps"],
            "loss": loss, "seconds": round(time.perf_counter() - t0, 2)}
