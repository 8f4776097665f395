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


#: Windows' BELOW_NORMAL_PRIORITY_CLASS and IDLE_PRIORITY_CLASS (a process started by one in
#: a class inherits it)
BELOW_NORMAL_PRIORITY_CLASS = 0x4000
IDLE_PRIORITY_CLASS = 0x40
#: from this many nice steps on, Windows gets the idle class rather than below normal, so that
#: the order POSIX keeps (the window, then the AI at nice 4, then training at 8 more) holds there
IDLE_FROM_NICE = 8


def lower_priority(nice: int) -> bool:
    """Run this process, and the processes it starts from now on, below the window's process:
    ``nice`` steps nicer on POSIX (children inherit the value); on Windows, which has no nice
    values, the below-normal priority class, or the idle class from `IDLE_FROM_NICE` steps
    (children inherit the class too). Whether it was lowered; never raises (a process that
    keeps its priority still works)."""
    if hasattr(os, "nice"):
        try:
            os.nice(nice)
            return True
        except OSError:
            return False
    try:
        import ctypes
        kernel32 = ctypes.windll.kernel32
        priority = IDLE_PRIORITY_CLASS if nice >= IDLE_FROM_NICE else BELOW_NORMAL_PRIORITY_CLASS
        return bool(kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), priority))
    except (ImportError, AttributeError, OSError):
        return False
