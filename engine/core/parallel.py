"""One search on several threads that share its trees (`MCTS` with ``threads`` above 1).

Why threads help in Python: a search round is Python work on the tree and the rules (walk
down, expand, back up; encode the leaves) and then one network call, and the network
runtimes (ONNX Runtime, torch) release the GIL while they compute. With two threads, one
thread's leaves are in the network while the other walks the tree, so the network and the
Python work overlap on two cores (docs/threads.md has the figures). The tree work itself
runs under one lock: it holds the GIL anyway, and under the lock it needs no other care.

Each thread repeats: under the lock, gather up to a leaf batch from every tree still short
of its visits (virtual loss keeps the threads off each other's leaves; a leaf another thread
is evaluating is a collision, which ends the gathering); without the lock, evaluate them;
under the lock, expand them and back their values up. A thread that met only collisions
waits until another one backs up. Leaves in flight count towards the visits asked for, so a
search ends with exactly the visits asked for, as on one thread.

The calling thread is one of the search threads, and the only one that calls
``should_stop`` and ``on_progress`` (the latter under the lock, so it sees a consistent
tree). Every thread finishes the batch it is evaluating before it stops, so no leaf is left
pending and no virtual loss is left on the tree; an error in any thread stops the others and
is raised in the caller.

This module imports nothing heavy at import time (the window's process reads `default_threads`).
"""
from __future__ import annotations

import os
import threading
import time

#: the most search threads a person may ask for (more than a desktop's cores gains nothing)
MAX_THREADS = 256
#: seconds a thread that found nothing to evaluate waits for another thread's backup before
#: it looks again (and the calling thread asks ``should_stop``)
WAIT_SECONDS = 0.02
#: seconds between ``on_progress`` calls, as on one thread
PROGRESS_SECONDS = 0.1


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else all)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_threads() -> int:
    """Search threads the app uses unless told otherwise: every core but one, at least one
    (the one left keeps the window and the rest of the machine responsive)."""
    return max(1, usable_cores() - 1)


class _SharedSearch:
    """What the threads of one search share: the trees, their lock (``cond``), the leaves in
    flight per tree, the simulations run and whether (and why) the search has stopped."""

    def __init__(self, mcts, trees, targets, active, root_leads, batch, deadline, on_progress, should_stop,
                 noise, max_rounds):
        self.mcts = mcts
        self.trees = trees
        self.targets = targets
        self.active = list(active)
        self.root_leads = root_leads
        self.batch = batch
        self.deadline = deadline
        self.on_progress = on_progress
        self.should_stop = should_stop
        self.noise = noise and bool(mcts.cfg.dirichlet_alpha)
        self.max_rounds = max_rounds
        self.cond = threading.Condition()
        self.in_flight = [0] * len(trees)   # leaves being evaluated, per tree
        self.sims = 0
        self.rounds = 0
        self.stopped = False
        self.error: BaseException | None = None
        self.last_report = time.perf_counter()

    # --- under the lock ---------------------------------------------------------
    def _completed(self, i: int) -> float:
        """Visits backed up at tree ``i``'s root (its ``root_n`` less the virtual loss in flight)."""
        return self.trees[i].root_n - self.mcts.cfg.virtual_loss * self.in_flight[i]

    def _gather(self):
        """Leaves to evaluate (a `LeafBatch`, possibly empty), or None once the search is over."""
        trees, targets = self.trees, self.targets
        self.active = [i for i in self.active if self._completed(i) + self.in_flight[i] < targets[i]]
        if not self.active:
            if not any(self.in_flight):
                self.stopped = True   # every tree has its visits
            return None if self.stopped else self.mcts.new_leaves(None)
        if self.max_rounds is not None and self.rounds >= self.max_rounds:
            self.stopped = not any(self.in_flight)
            return None if self.stopped else self.mcts.new_leaves(None)
        self.rounds += 1
        leaves = self.mcts.new_leaves(self.root_leads)
        for i in self.active:
            t = trees[i]
            room = int(targets[i] - self._completed(i) - self.in_flight[i])
            want = min(self.batch, room) if t.root_expanded else 1
            before = len(leaves.states)
            self.sims += self.mcts.gather(trees, i, want, self.root_leads, leaves, room)
            self.in_flight[i] += len(leaves.states) - before
        return leaves

    def _time_is_up(self) -> bool:
        return (self.deadline is not None and time.perf_counter() >= self.deadline
                and all(self.trees[i].root_expanded for i in self.active))

    # --- each thread ------------------------------------------------------------
    def run(self, calling: bool) -> None:
        """One search thread's loop; ``calling``: the thread that called the search."""
        try:
            while True:
                with self.cond:
                    if self.stopped:
                        return
                    done = self.sims
                    leaves = self._gather()
                    if leaves is None:
                        self.cond.notify_all()
                        return
                    if not leaves.states and self.sims == done:   # only collisions: wait for a backup
                        self.cond.wait(WAIT_SECONDS)
                if leaves.states:
                    priors, values = self.mcts.evaluate(leaves)   # the network runs here, unlocked
                    with self.cond:
                        self.sims += self.mcts.expand(self.trees, leaves, priors, values, self.targets, self.noise)
                        for i, _, _ in leaves.owners:
                            self.in_flight[i] -= 1
                        if self.noise:
                            self.mcts.noise_roots(self.trees, self.active)
                        self.cond.notify_all()
                self._after_round(calling)
        except BaseException as e:   # stop the other threads; the caller raises it
            with self.cond:
                if self.error is None:
                    self.error = e
                self.stopped = True
                self.cond.notify_all()

    def _after_round(self, calling: bool) -> None:
        with self.cond:
            if self._time_is_up():
                self.stopped = True
            if self.stopped or not calling:
                return
        if self.should_stop is not None and self.should_stop():
            with self.cond:
                self.stopped = True
            return
        now = time.perf_counter()
        if self.on_progress is not None and now - self.last_report >= PROGRESS_SECONDS:
            self.last_report = now
            with self.cond:
                self.on_progress()


def threaded_search(mcts, trees, targets, active, root_leads, batch, deadline, on_progress, should_stop,
                    noise, max_rounds) -> int:
    """`MCTS.search` on ``mcts.threads`` threads, the calling one included (its arguments
    prepared by `MCTS.search`). Returns the number of simulations run."""
    shared = _SharedSearch(mcts, trees, targets, active, root_leads, batch, deadline, on_progress, should_stop,
                           noise, max_rounds)
    helpers = [threading.Thread(target=shared.run, args=(False,), name=f"search-{k}", daemon=True)
               for k in range(1, mcts.threads)]
    for h in helpers:
        h.start()
    try:
        shared.run(calling=True)
    finally:
        with shared.cond:
            shared.stopped = True
            shared.cond.notify_all()
        for h in helpers:
            h.join()
    if shared.error is not None:
        raise shared.error
    return shared.sims
