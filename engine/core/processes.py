"""Child processes: ending them politely first, by force when they do not listen; running
them below the window's priority."""
from __future__ import annotations

import os


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


#: Windows' BELOW_NORMAL_PRIORITY_CLASS (a process started by one in it inherits it)
BELOW_NORMAL_PRIORITY_CLASS = 0x4000


def lower_priority(nice: int) -> bool:
    """Run this process, and the processes it starts from now on, below the window's process:
    ``nice`` steps nicer on POSIX (children inherit the value), the below-normal priority class
    on Windows, which has no nice values (children inherit that class too). Whether it was
    lowered; never raises (a process that keeps its priority still works)."""
    if hasattr(os, "nice"):
        try:
            os.nice(nice)
            return True
        except OSError:
            return False
    try:
        import ctypes
        kernel32 = ctypes.windll.kernel32
        return bool(kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), BELOW_NORMAL_PRIORITY_CLASS))
    except (ImportError, AttributeError, OSError):
        return False
