"""Worker processes no episode can stop: ``WorkerPool`` runs the bench's episodes, one at a
time per worker, and replaces a worker that dies or overruns.

``concurrent.futures.ProcessPoolExecutor`` breaks for good when one worker dies
(``BrokenProcessPool``) and cannot abandon a call, so the bench keeps its own pool: each
worker is a ``multiprocessing`` spawn process with a pipe to this one, and takes one episode
at a time (``target(job, calls)``). Before each agent call a worker sends what it knows of
the episode (``("call", seq, timeout_s, what, progress)``) and marks the call in flight in
shared memory (its slot holds ``seq``; 0 between calls). This process waits on the pipes and
the processes' sentinels until the nearest deadline, then

- kills a worker whose call is still in flight at its deadline (the only reliable way to
  abandon a hung call in Python): a ``Lost("time_limit", ...)`` outcome;
- kills a worker still busy ``ENV_GRACE_S`` past the episode's time limit outside agent
  calls (the env hung): ``Lost("time_limit", ...)``;
- reports a worker that died (``os._exit``, a segfault, an out-of-memory kill) as
  ``Lost("crash", detail)`` with its exit code or signal;

and starts a new worker for the next episode. A killed worker takes its process group (the
agent's own subprocesses) along.

Workers never outlive the bench: each leads its own process group (a terminal's Ctrl-C goes
to the bench, which kills them), asks Linux for SIGKILL when its parent dies
(``prctl(PR_SET_PDEATHSIG)``, ``man 2 prctl``) and watches its parent's pid from a thread
(elsewhere). Workers ignore SIGINT, so a ``KeyboardInterrupt`` in one is an agent's own.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

from .calls import AgentCalls, abandoned, last_line

T = TypeVar("T")
#: Seconds an episode may run past its time limit outside agent calls before it is abandoned.
ENV_GRACE_S = 30.0
#: How often a worker checks that its parent lives (where prctl cannot tell it).
PARENT_CHECK_S = 0.5
#: Workers that die before they say anything, in a row with no episode done, stop the run.
STARTUP_DEATHS = 3
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
#: Record fields a worker sends before each agent call (and the new actions).
PROGRESS_KEYS = ("instruction", "steps", "tokens_in", "tokens_out", "latency_s")


@dataclass
class Lost:
    """An episode whose worker died or was killed: the failure ("crash", "time_limit"), its
    detail, the record fields the worker sent (``PROGRESS_KEYS`` and ``actions``) and the
    seconds since the episode was sent."""

    failure: str
    detail: str
    progress: dict[str, Any]
    elapsed_s: float


class WorkerCalls(AgentCalls):
    """A worker's agent calls: marked in flight in its slot and announced to the parent
    (which kills the worker when one overruns); progress rides along."""

    _seq = count(1)

    def __init__(self, conn: Connection, slots: Any, index: int) -> None:
        self.conn, self.slots, self.index = conn, slots, index
        self.sent = 0

    def begin(self) -> None:
        self.sent = 0

    def call(self, fn: Callable[[], T], timeout_s: float | None, what: str,
             record: Mapping[str, Any]) -> T:
        seq = next(self._seq)
        progress = {k: record[k] for k in PROGRESS_KEYS if k in record}
        progress["actions"] = list(record.get("actions", ())[self.sent:])
        self.sent += len(progress["actions"])
        self.slots[self.index] = seq
        self.conn.send(("call", seq, timeout_s, what, progress))
        try:
            return super().call(fn, timeout_s, what, record)
        finally:
            self.slots[self.index] = 0


def _exit_detail(code: int | None) -> str:
    """A dead worker's exit status in words."""
    if code is None:
        return "the worker process stopped"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "an unknown signal"
        why = " (the out-of-memory killer, or another process)" if -code == 9 else ""
        return f"the worker process was killed by signal {-code} ({name}){why}"
    return f"the worker process exited with code {code}"


def _kill(process: Any) -> None:
    """SIGKILL the worker and its process group (what its agent started), then reap it."""
    if process.pid is not None and hasattr(os, "killpg"):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass  # not yet its own group leader
    if process.is_alive():
        process.kill()
    process.join(10)


def _die_with_parent(parent_pid: int) -> None:
    """End this worker (and its group) when ``parent_pid`` dies."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watch below still ends it

    def orphaned() -> None:
        if hasattr(os, "killpg") and os.getpgrp() == os.getpid():
            os.killpg(0, signal.SIGKILL)
        os._exit(1)

    if os.getppid() != parent_pid:  # died before prctl took effect
        orphaned()

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_CHECK_S)
        orphaned()

    threading.Thread(target=watch, name="phone-gym-bench-parent-watch", daemon=True).start()


def _worker_main(conn: Connection, slots: Any, index: int, parent_pid: int,
                 target: Callable[[Any, AgentCalls], Any]) -> None:
    """A worker: episodes from ``conn`` until it closes or sends None."""
    if hasattr(os, "setpgrp"):
        os.setpgrp()
    _die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bench's to handle
    calls = WorkerCalls(conn, slots, index)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            job = None
        if job is None:  # done: exit now, not after an agent's non-daemon threads
            _exit(0)
        calls.begin()
        try:
            result = target(job, calls)
        except BaseException as exc:  # noqa: BLE001 - e.g. SystemExit outside agent calls
            conn.send(("lost", last_line(exc)))
            _exit(1)
        conn.send(("done", result))


def _exit(code: int) -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    os._exit(code)


@dataclass
class _Worker:
    index: int
    process: Any
    conn: Connection
    job: Any = None
    sent_at: float = 0.0
    heard: bool = False  #: it sent something for its job
    seq: int = 0  #: its call in flight, as it announced it
    call_at: float | None = None  #: when that call overruns
    what: str = ""
    progress: dict[str, Any] = field(default_factory=dict)


class WorkerPool:
    """Up to ``workers`` processes running ``target(job, calls) -> result`` (both must
    pickle: module-level functions). ``limit_of(job)``: the job's episode time limit in
    seconds (None: none). Use it as a context manager; ``run`` yields ``(job, result)``, or
    ``(job, Lost)`` for an episode its worker did not finish."""

    def __init__(self, workers: int, target: Callable[[Any, AgentCalls], Any],
                 limit_of: Callable[[Any], float | None]) -> None:
        self.size = workers
        self.target = target
        self.limit_of = limit_of
        self.context = multiprocessing.get_context("spawn")
        self.slots = self.context.RawArray("q", workers)
        self.workers: dict[int, _Worker] = {}
        self.finished = 0
        self.startup_deaths = 0

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # --- workers --------------------------------------------------------------------------
    def _start(self, index: int, job: Any) -> None:
        ours, theirs = self.context.Pipe()
        self.slots[index] = 0
        process = self.context.Process(
            target=_worker_main, args=(theirs, self.slots, index, os.getpid(), self.target),
            name=f"phone-gym-bench-{index}")
        process.start()
        theirs.close()  # the worker's end: its death closes the pipe
        self.workers[index] = _Worker(index, process, ours)
        self._send(self.workers[index], job)

    def _send(self, worker: _Worker, job: Any) -> None:
        worker.job, worker.sent_at, worker.heard = job, time.monotonic(), False
        worker.seq, worker.call_at, worker.progress = 0, None, {"actions": []}
        worker.conn.send(job)

    def _retire(self, worker: _Worker, kill: bool) -> None:
        del self.workers[worker.index]
        if not kill:
            try:
                worker.conn.send(None)
                worker.process.join(2)
            except OSError:
                pass
        _kill(worker.process)
        worker.conn.close()

    def close(self) -> None:
        """End every worker: idle ones are told to stop, busy ones killed."""
        for worker in list(self.workers.values()):
            self._retire(worker, kill=worker.job is not None)

    # --- the run ---------------------------------------------------------------------------
    def _lost(self, worker: _Worker, failure: str, detail: str) -> tuple[Any, Lost]:
        lost = Lost(failure, detail, worker.progress, time.monotonic() - worker.sent_at)
        return worker.job, lost

    def _messages(self, worker: _Worker) -> list[tuple[Any, Any]]:
        """Read what ``worker`` sent; the outcomes of finished episodes."""
        out: list[tuple[Any, Any]] = []
        try:
            while worker.job is not None and worker.conn.poll():
                message = worker.conn.recv()
                worker.heard = True
                if message[0] == "call":
                    _, worker.seq, timeout_s, worker.what, progress = message
                    actions = progress.pop("actions")
                    worker.progress.update(progress)
                    worker.progress["actions"] += actions
                    worker.call_at = None if timeout_s is None else time.monotonic() + timeout_s
                elif message[0] == "done":
                    out.append((worker.job, message[1]))
                    worker.job = None
                    self.finished += 1
                    self.startup_deaths = 0
                else:  # "lost": it raised outside agent calls and ends
                    out.append(self._lost(worker, "crash", message[1]))
                    worker.job = None
                    self._retire(worker, kill=True)
        except (EOFError, OSError):
            pass  # it died: its sentinel tells
        return out

    def _check(self, worker: _Worker, now: float) -> tuple[Any, Lost] | None:
        """Kill ``worker`` if its episode overran; the outcome then."""
        if worker.call_at is not None and now >= worker.call_at:
            if self.slots[worker.index] == worker.seq:
                outcome = self._lost(worker, "time_limit", abandoned(worker.what))
                self._retire(worker, kill=True)
                return outcome
            worker.call_at = None  # the call returned in time to be handled by the worker
        limit = self.limit_of(worker.job)
        if limit is not None and now >= worker.sent_at + limit + ENV_GRACE_S:
            outcome = self._lost(worker, "time_limit", (
                f"the episode ran over the time limit of {limit:g} s by more than "
                f"{ENV_GRACE_S:g} s outside agent calls and was abandoned (not scored)"))
            self._retire(worker, kill=True)
            return outcome
        return None

    def _next_wake(self) -> float | None:
        times: list[float] = []
        for worker in self.workers.values():
            if worker.job is None:
                continue
            if worker.call_at is not None:
                times.append(worker.call_at)
            limit = self.limit_of(worker.job)
            if limit is not None:
                times.append(worker.sent_at + limit + ENV_GRACE_S)
        return max(0.0, min(times) - time.monotonic()) if times else None

    def _dead(self, worker: _Worker) -> tuple[Any, Lost] | None:
        """Handle a worker that ended; the outcome of the episode it had, if any."""
        worker.process.join(10)
        code = worker.process.exitcode
        outcome = None
        if worker.job is not None:
            if not worker.heard:
                self.startup_deaths += 1
                if self.startup_deaths >= STARTUP_DEATHS and not self.finished:
                    self.close()
                    raise RuntimeError(
                        f"bench worker processes die before they start an episode "
                        f"({_exit_detail(code)}; its error is printed above)")
            outcome = self._lost(worker, "crash", _exit_detail(code))
        self._retire(worker, kill=True)
        return outcome

    def run(self, jobs: Sequence[Any]) -> Iterator[tuple[Any, Any]]:
        """Run ``jobs``; their outcomes as they finish."""
        queue = deque(jobs)
        free = [i for i in range(self.size) if i not in self.workers]
        while free and queue:
            self._start(free.pop(0), queue.popleft())
        while self.workers:
            busy = [w for w in self.workers.values() if w.job is not None]
            if not busy:
                break
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                             self._next_wake()))
            outcomes: list[tuple[Any, Any]] = []
            for worker in busy:
                alive = worker.process.is_alive()
                if not alive or worker.conn in ready or worker.process.sentinel in ready:
                    outcomes += self._messages(worker)
                if worker.index not in self.workers:
                    continue
                if not alive:
                    lost = self._dead(worker)
                elif worker.job is not None:
                    lost = self._check(worker, time.monotonic())
                else:
                    continue
                outcomes += [lost] if lost is not None else []
            for worker in busy:  # the next jobs: to the idle workers, or new ones
                if worker.index in self.workers and worker.job is None:
                    if queue:
                        self._send_or_replace(worker, queue)
                    else:
                        self._retire(worker, kill=False)
                elif worker.index not in self.workers and queue:
                    self._start(worker.index, queue.popleft())
            yield from outcomes

    def _send_or_replace(self, worker: _Worker, queue: deque[Any]) -> None:
        job = queue.popleft()
        try:
            self._send(worker, job)
        except OSError:  # it died between episodes: the job goes to a new worker
            worker.job = None
            self._retire(worker, kill=True)
            self._start(worker.index, job)
