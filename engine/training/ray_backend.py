"""Self-play on a Ray cluster (`train --backend ray`): workers are Ray actors, the learner
stays in the driver, and each generation's weights travel through Ray's object store.

Install with ``pip install -r requirements-ray.txt``. Without ``--ray-address`` a local
Ray instance is started with as many CPUs as workers.
"""
from __future__ import annotations

from pathlib import Path


def _import_ray():
    try:
        import ray
    except ImportError:
        raise RuntimeError("the ray backend needs Ray: pip install -r requirements-ray.txt") from None
    return ray


class RaySelfPlay:
    def __init__(self, workers: int, address: str | None = None):
        ray = _import_ray()
        self.ray = ray
        self.owns_ray = not ray.is_initialized()
        if self.owns_ray:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        repo = str(Path(__file__).resolve().parents[2])

        @ray.remote(num_cpus=1)
        class SelfPlayActor:
            def __init__(self):
                import sys
                if repo not in sys.path:
                    sys.path.insert(0, repo)  # a local cluster shares this checkout

            def play(self, game_key, checkpoint_bytes, settings, n_games, seed):
                import os
                import tempfile
                from engine.training.workers import selfplay_job
                fd, path = tempfile.mkstemp(suffix=".pt")
                try:
                    with os.fdopen(fd, "wb") as f:
                        f.write(checkpoint_bytes)
                    return selfplay_job(game_key, path, settings, n_games, seed)
                finally:
                    os.unlink(path)

        self.actors = [SelfPlayActor.remote() for _ in range(workers)]

    def run(self, game_key: str, checkpoint: str, settings: dict, shares: list[int], seeds: list[int]):
        ref = self.ray.put(Path(checkpoint).read_bytes())
        futures = [actor.play.remote(game_key, ref, settings, n, s)
                   for actor, n, s in zip(self.actors, shares, seeds) if n > 0]
        return self.ray.get(futures)

    def close(self) -> None:
        for a in self.actors:
            try:
                self.ray.kill(a)
            except Exception:
                pass
        self.actors = []
        if self.owns_ray:
            self.ray.shutdown()
