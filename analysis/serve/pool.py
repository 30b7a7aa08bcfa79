"""The web app's workers: the advisor, the planner and the replays run in worker processes, one
per core by default, each keeping its kernels loaded between requests; further jobs wait in a
first-in, first-out queue whose places the pages show, and a job whose page has closed is
cancelled (waiting: dropped; running: stopped at its next batch of worlds).

A worker runs ``work.run(kind, params, emit)`` (:mod:`.work`) and sends back, for job ``j``,
``(j, event, data)`` tuples: ``("progress", snapshot)``, ``("note", text)``, then one of
``("result", doc)``, ``("error", {"message", "field"})`` (bad input: one sentence) or
``("failed", text)`` (a bug: logged by the server, a plain sentence on the page).  A worker that
dies is restarted and its job fails with a sentence; no job is lost or left waiting.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing as mp
import os
import queue
import sys
import threading
import traceback
from collections import deque
from dataclasses import dataclass, field

DONE = ("result", "error", "failed")


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:       # not Linux
        return max(1, os.cpu_count() or 1)


def _worker(slot: int, inbox, outbox, cancel) -> None:
    """A worker process: run jobs until told to stop (``None``)."""
    from . import work
    work.warm()
    outbox.put((None, "ready", slot))
    while True:
        item = inbox.get()
        if item is None:
            return
        job_id, kind, params = item

        def emit(event, data, job_id=job_id):
            if cancel[slot] == job_id:
                raise work.Cancelled()
            outbox.put((job_id, event, data))
        try:
            work.run(kind, params, emit)
        except work.Cancelled:
            outbox.put((job_id, "error", {"message": "cancelled", "field": None}))
        except work.BadInput as e:
            outbox.put((job_id, "error", {"message": str(e), "field": e.field}))
        except Exception:    # noqa: BLE001 - a bug: reported, the worker lives on
            outbox.put((job_id, "failed", traceback.format_exc()))


@dataclass
class Job:
    id: int
    kind: str
    params: dict
    events: asyncio.Queue = field(default_factory=asyncio.Queue)
    slot: int | None = None
    done: bool = False
    heard: bool = False             # an events stream or a waiting request listens


class Pool:
    """Worker processes, the waiting line and each job's event queue (asyncio side)."""

    def __init__(self, workers: int | None = None):
        self.n = workers or default_workers()
        self.ctx = mp.get_context("spawn")       # the server has threads: no fork
        self.outbox = self.ctx.Queue()
        self.cancel = self.ctx.Array("q", [-1] * self.n, lock=False)
        self.procs: list = [None] * self.n
        self.inboxes: list = [None] * self.n
        self.busy: list[Job | None] = [None] * self.n
        self.ready: set[int] = set()
        self.waiting: deque[Job] = deque()
        self.jobs: dict[int, Job] = {}
        self.ids = itertools.count(1)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping = False
        self.log: list[str] = []          # tracebacks of failed jobs (the server prints them)

    # -- life cycle ------------------------------------------------------------------------
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        for slot in range(self.n):
            self._spawn(slot)
        threading.Thread(target=self._read, daemon=True, name="rummylab-pool").start()

    def _spawn(self, slot: int) -> None:
        self.inboxes[slot] = self.ctx.Queue()
        p = self.ctx.Process(target=_worker, args=(slot, self.inboxes[slot], self.outbox, self.cancel),
                             daemon=True, name=f"rummylab-worker-{slot}")
        p.start()
        self.procs[slot] = p

    def stop(self) -> None:
        self.stopping = True
        for q in self.inboxes:
            if q is not None:
                q.put(None)
        for p in self.procs:
            if p is not None:
                p.join(timeout=2)
                if p.is_alive():
                    p.terminate()
        self.outbox.put((None, "stop", None))

    # -- jobs ------------------------------------------------------------------------------
    def submit(self, kind: str, params: dict) -> Job:
        job = Job(next(self.ids), kind, params)
        self.jobs[job.id] = job
        self.waiting.append(job)
        self._dispatch()
        self._tell_places()
        return job

    def place(self, job: Job) -> int:
        """1 for the next job to start; 0 once running."""
        try:
            return self.waiting.index(job) + 1
        except ValueError:
            return 0

    def cancel_job(self, job: Job) -> None:
        """The page has gone: drop a waiting job, stop a running one at its next batch."""
        if job.done:
            return
        if job in self.waiting:
            self.waiting.remove(job)
            self._finish(job)
            self._tell_places()
        elif job.slot is not None:
            self.cancel[job.slot] = job.id

    def _dispatch(self) -> None:
        for slot in sorted(self.ready):
            if not self.waiting:
                return
            if self.busy[slot] is None:
                job = self.waiting.popleft()
                job.slot, self.busy[slot] = slot, job
                self.cancel[slot] = -1
                self.inboxes[slot].put((job.id, job.kind, job.params))
                job.events.put_nowait(("started", {"slot": slot}))

    def _tell_places(self) -> None:
        for k, job in enumerate(self.waiting):
            job.events.put_nowait(("queued", {"place": k + 1}))

    def forget(self, job: Job) -> None:
        """Its events have been read (or nobody came for them): the job is dropped (a running
        one is cancelled first)."""
        self.cancel_job(job)
        self.jobs.pop(job.id, None)

    def _finish(self, job: Job) -> None:
        job.done = True          # its last event waits in its queue for the page to read it
        if job.slot is not None and self.busy[job.slot] is job:
            self.busy[job.slot] = None

    # -- the reader thread -----------------------------------------------------------------
    def _read(self) -> None:
        while True:
            try:
                msg = self.outbox.get(timeout=1.0)
            except queue.Empty:          # a quiet second: look for dead workers
                self.loop.call_soon_threadsafe(self._check_workers)
                continue
            except (EOFError, OSError, ValueError):   # the server is shutting down
                return
            if msg[1] == "stop":
                return
            self.loop.call_soon_threadsafe(self._on_message, *msg)

    def _on_message(self, job_id, event, data) -> None:
        if job_id is None:
            if event == "ready":
                self.ready.add(data)
                self._dispatch()
                self._tell_places()
            return
        job = self.jobs.get(job_id) or next((j for j in self.busy if j is not None and j.id == job_id), None)
        if job is None:          # a dropped job's late message
            return
        if event == "failed":
            self.log.append(data)
            print(f"rummylab serve: job {job_id} ({job.kind}) failed:\n{data}", file=sys.stderr, flush=True)
            data = "the server failed on this request (its log has the details)"
        job.events.put_nowait((event, data))
        if event in DONE:
            self._finish(job)
            self._dispatch()
            self._tell_places()

    def _check_workers(self) -> None:
        if self.stopping:
            return
        for slot, p in enumerate(self.procs):
            if p is not None and not p.is_alive() and p.exitcode is not None:
                job = self.busy[slot]
                self.ready.discard(slot)
                if job is not None:
                    job.events.put_nowait(("failed", "the worker running this request stopped; "
                                                     "it was restarted, ask again"))
                    self._finish(job)
                self._spawn(slot)
