"""SIGTERM handled as Ctrl-C: a run stopped by ``kill``, a batch system or a closing terminal
ends as an interrupted one does (the summary of the finished hands, labelled partial; the store
resumable), not silently."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


@contextmanager
def sigterm_as_interrupt():
    """While inside: SIGTERM raises KeyboardInterrupt in the main thread (elsewhere: a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
