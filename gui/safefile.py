"""Reading a user's file without trusting it: only a regular file, at most so many bytes.

The file is opened without blocking and checked after opening, so a FIFO, a device, or a file
swapped for one between a listing (or a stat) and the read is refused, never waited on."""
from __future__ import annotations

import os
import stat
from pathlib import Path


class UnreadableFile(Exception):
    """Why a file was not read: ``kind`` is "missing" or "open" (``detail``: the OS's reason),
    "not_file" or "too_large"."""

    def __init__(self, kind: str, detail: str = ""):
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind, self.detail = kind, detail


def read_regular_file(path, limit: int) -> bytes:
    """The bytes of the regular file ``path`` if it has at most ``limit`` of them."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(Path(path), flags)
    except FileNotFoundError as e:
        raise UnreadableFile("missing", e.strerror or "") from None
    except OSError as e:
        raise UnreadableFile("open", e.strerror or type(e).__name__) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableFile("not_file")
        if st.st_size > limit:
            raise UnreadableFile("too_large")
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(65536, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise UnreadableFile("too_large")
        return b"".join(chunks)
    except OSError as e:
        raise UnreadableFile("open", e.strerror or type(e).__name__) from None
    finally:
        os.close(fd)
