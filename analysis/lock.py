"""One writer per results folder: a lock file (``filelock``) held from the moment a command
opens the folder until the command ends.

A second rummylab writing the same folder says so in one line and waits; when the first one
finishes, it finds the finished run and reuses it (nothing is computed twice).  The lock file
``.rummylab.lock`` stays in the folder (it is empty, and ignored wherever a folder's content is
checked); the lock itself goes with the process, so a crash never leaves a folder locked.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

LOCK_NAME = ".rummylab.lock"

_held: dict[Path, object] = {}
_mutex = threading.Lock()


def hold(folder) -> None:
    """Hold ``folder``'s lock (creating the folder) until :func:`release_all`; a lock this process
    already holds is kept as is; held by another process: a message, then wait for it."""
    from filelock import FileLock, Timeout
    d = Path(folder).resolve()
    with _mutex:
        if d in _held:
            return
        d.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(d / LOCK_NAME), thread_local=False)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            print(f"rummylab: {folder} is being written by another rummylab; waiting for it to finish "
                  "(Ctrl-C to stop)", file=sys.stderr, flush=True)
            lock.acquire()
        _held[d] = lock


def release(folder) -> None:
    with _mutex:
        lock = _held.pop(Path(folder).resolve(), None)
    if lock is not None:
        lock.release()


def release_all() -> None:
    """Release every lock this process holds (the end of a command)."""
    for d in list(_held):
        release(d)


def holds(folder) -> bool:
    """Whether this process holds ``folder``'s lock."""
    return Path(folder).resolve() in _held
