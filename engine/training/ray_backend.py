"""Self-play on a Ray cluster (`train --backend ray`): workers are Ray actors, the learner
stays in the driver, and each generation's weights travel through Ray's object store.

- **Code**: the driver ships its own ``games`` and ``engine`` packages to the workers through
  Ray's runtime environment (``py_modules``), so a machine that joins the cluster needs the
  Python environment (the same Python, Ray, torch and numpy versions) but no checkout of
  ZeroBoard, at any path.
- **Progress**: each worker reports every finished game (and its positions) to a small
  monitor actor, which the driver reads while it waits.
- **Stop**: a stop request cancels the outstanding self-play tasks (``ray.cancel``); a task
  not yet started never runs, and a running one sees the cancellation between two search
  rounds (``ray.get_runtime_context().is_canceled()``) and returns. Workers that do not
  return within `STOP_WAIT` seconds are ended.

Install with ``python3 tools/bootstrap.py install --extras ray`` (or ``pip install -r
requirements-ray.txt``). Without ``--ray-address`` a local Ray instance is started with as
many CPUs as workers.
"""
from __future__ import annotations

import os
import time
import uuid
from pathlib import Path

#: seconds between two looks at the workers' progress and at a stop request
POLL_SECONDS = 0.25
#: seconds cancelled self-play tasks get to return before their actors are ended
STOP_WAIT = 10.0
#: seconds the workers get to start (the code is unpacked and torch imported on each node)
START_TIMEOUT = 180.0
#: object store of a Ray instance this backend starts itself (checkpoints and one
#: generation's samples pass through it; Ray spills to disk past it)
LOCAL_OBJECT_STORE_BYTES = 256 * 1024 * 1024


INSTALL_HINT = "python3 tools/bootstrap.py install --extras ray (or pip install -r requirements-ray.txt)"


def import_ray():
    try:
        import ray
    except ImportError:
        raise RuntimeError(f"the ray backend needs Ray: {INSTALL_HINT}") from None
    try:
        import aiohttp  # noqa: F401  (Ray's runtime-environment agent serves over it)
    except ImportError:
        raise RuntimeError("the ray backend ships its code to the workers through Ray's runtime environments, "
                           f"which need Ray's default components (ray[default]): {INSTALL_HINT}") from None
    return ray


def code_packages() -> list[str]:
    """The folders of the packages self-play needs (``games`` and ``engine``), as the driver has them."""
    import games
    import engine
    return [str(Path(games.__file__).resolve().parent), str(Path(engine.__file__).resolve().parent)]


def runtime_env() -> dict:
    """Ray's runtime environment for the workers: the driver's code, without byte-code caches."""
    return {"py_modules": code_packages(), "excludes": ["__pycache__", "*.pyc"]}


class SelfPlayMonitor:
    """Counts finished games and positions per job, as the workers report them (a Ray actor)."""

    def __init__(self):
        self.jobs: dict[str, tuple[int, int]] = {}

    def game_done(self, job: str, positions: int) -> None:
        games, total = self.jobs.get(job, (0, 0))
        self.jobs[job] = (games + 1, total + positions)

    def counts(self, job: str) -> tuple[int, int]:
        return self.jobs.get(job, (0, 0))

    def forget(self, job: str) -> None:
        self.jobs.pop(job, None)


class _MonitorReports:
    """The queue `engine.training.workers` reports finished games to, sending them to the monitor."""

    def __init__(self, monitor, job: str):
        self.monitor, self.job = monitor, job

    def put(self, message) -> None:
        self.monitor.game_done.remote(self.job, int(message[1]))


class _Cancelled:
    """The stop event `engine.training.workers` looks at: this task was cancelled (``ray.cancel``)."""

    def is_set(self) -> bool:
        import ray
        return ray.get_runtime_context().is_canceled()


class SelfPlayActor:
    """A self-play worker on some node of the cluster (a Ray actor holding one CPU)."""

    def __init__(self, monitor):
        self.monitor = monitor
        from engine.core.network import configure_threads
        configure_threads(1)

    def where(self) -> dict:
        """Which node and process this worker runs in, and where its code came from."""
        import ray
        import engine
        return {"node": ray.get_runtime_context().get_node_id(), "pid": os.getpid(),
                "engine": str(Path(engine.__file__).resolve().parent)}

    def play(self, job: str, game_key: str, checkpoint_bytes: bytes, settings: dict, n_games: int, seed: int):
        import tempfile
        from engine.training import workers
        fd, path = tempfile.mkstemp(suffix=".pt")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(checkpoint_bytes)
            workers.attach(_MonitorReports(self.monitor, job), _Cancelled())
            return workers.selfplay_job(game_key, path, settings, n_games, seed)
        finally:
            workers.attach(None, None)
            os.unlink(path)


class RaySelfPlay:
    """``workers`` self-play actors on a Ray cluster (``address``), or on a local Ray instance."""

    def __init__(self, workers: int, address: str | None = None):
        ray = import_ray()
        self.ray = ray
        self.workers = max(1, int(workers))
        self.owns_ray = not ray.is_initialized()
        # Ray uploads local folders only for a whole job (ray.init); a program that connected
        # to Ray itself chooses its job's runtime environment (`runtime_env()` gives this one)
        if self.owns_ray:
            if address:
                ray.init(address=address, log_to_driver=False, runtime_env=runtime_env())
            else:
                ray.init(num_cpus=self.workers, include_dashboard=False, log_to_driver=False,
                         object_store_memory=LOCAL_OBJECT_STORE_BYTES, runtime_env=runtime_env())
        self.monitor = ray.remote(num_cpus=0)(SelfPlayMonitor).remote()
        self.actors = []
        try:
            self._start_actors()
        except BaseException:
            self.close()
            raise

    def _start_actors(self) -> None:
        """Start the workers and wait until each one answers (or fail with a reason)."""
        ray = self.ray
        cls = ray.remote(num_cpus=1)(SelfPlayActor)
        self.actors = [cls.options(scheduling_strategy="SPREAD").remote(self.monitor)
                       for _ in range(self.workers)]
        try:
            ray.get([a.where.remote() for a in self.actors], timeout=START_TIMEOUT)
        except ray.exceptions.GetTimeoutError:
            cpus = ray.cluster_resources().get("CPU", 0)
            raise RuntimeError(f"{self.workers} Ray self-play workers (one CPU each) did not start within "
                               f"{START_TIMEOUT:.0f} s; the cluster has {cpus:g} CPUs") from None

    def describe_workers(self) -> list[dict]:
        """Each worker's node id, process id and code folder (`SelfPlayActor.where`)."""
        return self.ray.get([a.where.remote() for a in self.actors])

    def run(self, game_key: str, checkpoint: str, settings: dict, shares: list[int], seeds: list[int],
            on_progress=None, should_stop=None):
        """Play ``shares[i]`` games on worker i; returns each worker's (samples, stats), or None
        when ``should_stop()`` became true first (the outstanding tasks are cancelled).
        ``on_progress(games, positions)`` gets the counts so far as the workers report them."""
        ray = self.ray
        if not self.actors:
            self._start_actors()
        job = uuid.uuid4().hex
        ckpt = ray.put(Path(checkpoint).read_bytes())
        refs = [actor.play.remote(job, game_key, ckpt, settings, n, s)
                for actor, n, s in zip(self.actors, shares, seeds) if n > 0]
        pending = list(refs)
        try:
            while pending:
                if should_stop is not None and should_stop():
                    self._cancel(refs)
                    return None
                _, pending = ray.wait(pending, num_returns=len(pending), timeout=POLL_SECONDS)
                if on_progress is not None:
                    on_progress(*ray.get(self.monitor.counts.remote(job)))
            results = ray.get(refs)
        finally:
            self.monitor.forget.remote(job)
        if on_progress is not None:   # reports still on their way when the last task returned
            on_progress(sum(st["games"] for _, st in results), sum(len(arrays[3]) for arrays, _ in results))
        return results

    def _cancel(self, refs: list) -> None:
        """Cancel ``refs`` and wait for them to return; end the workers that do not."""
        ray = self.ray
        for ref in refs:
            ray.cancel(ref)
        deadline = time.monotonic() + STOP_WAIT
        pending = list(refs)
        while pending and time.monotonic() < deadline:
            _, pending = ray.wait(pending, num_returns=len(pending), timeout=POLL_SECONDS)
        if pending:
            self._kill_actors()

    def _kill_actors(self) -> None:
        for a in self.actors:
            try:
                self.ray.kill(a)
            except Exception:
                pass   # already gone with its node
        self.actors = []

    def close(self) -> None:
        self._kill_actors()
        try:
            self.ray.kill(self.monitor)
        except Exception:
            pass
        if self.owns_ray:
            self.ray.shutdown()
