"""One writer per training run folder: an OS file lock held by whoever trains it.

The lock is ``fcntl.flock`` on POSIX and ``msvcrt.locking`` on Windows, on the file
``trainer.lock`` in the run folder. The operating system drops it when its holder ends,
however it ends (a kill -9 included), so a lock can never be left behind by a dead trainer,
and nothing has to be cleaned up. The holder writes its process id into the file, so a
second trainer can say who holds the folder.
"""
from __future__ import annotations

import os
from pathlib import Path

LOCK_NAME = "trainer.lock"


class RunDirLocked(Exception):
    """Another process is training this run folder; the message says which and what to do."""

    def __init__(self, run_dir, pid: int | None):
        self.run_dir, self.pid = Path(run_dir), pid
        holder = f"process {pid}" if pid else "another process"
        super().__init__(f"the run folder {run_dir} is being trained by {holder}; "
                         "stop that training first or choose another run folder")


def _try_lock(fd: int) -> bool:
    """Take the lock on ``fd`` without waiting; False when another process holds it."""
    if os.name == "nt":
        import msvcrt
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (BlockingIOError, PermissionError):
        return False
    return True


def _unlock(fd: int) -> None:
    if os.name == "nt":
        import msvcrt
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
    else:
        import fcntl
        fcntl.flock(fd, fcntl.LOCK_UN)


class RunDirLock:
    """``acquire()`` the run folder ``run_dir`` (creating it) or raise RunDirLocked;
    ``release()`` it. Re-entrant within one object; a second object or process is refused."""

    def __init__(self, run_dir):
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / LOCK_NAME
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        if self._fd is not None:
            return
        self.run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        if not _try_lock(fd):
            pid = self._holder(fd)
            os.close(fd)
            raise RunDirLocked(self.run_dir, pid)
        self._fd = fd
        try:  # the holder's pid, after byte 0 (which Windows locks): a refused trainer names it
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f" {os.getpid()}\n".encode())
        except OSError:
            pass  # only the message loses the pid

    @staticmethod
    def _holder(fd: int) -> int | None:
        try:
            os.lseek(fd, 1, os.SEEK_SET)
            text = os.read(fd, 32).decode("ascii", "replace").strip()
            return int(text) if text.isdigit() else None
        except OSError:
            return None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            _unlock(fd)
        finally:
            os.close(fd)

    def __enter__(self) -> "RunDirLock":
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def __del__(self):  # an abandoned holder (an exception in a constructor) lets go
        try:
            self.release()
        except Exception:
            pass
