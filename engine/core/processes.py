"""Ending child processes: politely first, by force when they do not listen."""
from __future__ import annotations


def end_process(p, timeout: float, term_wait: float = 2.0) -> None:
    """Wait up to ``timeout`` s for multiprocessing process ``p`` to leave on its own, then
    SIGTERM it and wait ``term_wait`` s more, then kill it."""
    p.join(timeout)
    if p.is_alive():
        p.terminate()
        p.join(term_wait)
    if p.is_alive():
        p.kill()
        p.join(1.0)
