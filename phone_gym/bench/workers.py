"""Worker processes no episode can stop: ``WorkerPool`` runs the bench's episodes, one at a
time per worker, and replaces a worker that dies or overruns.

``concurrent.futures.ProcessPoolExecutor`` breaks for good when one worker dies
(``BrokenProcessPool``) and cannot abandon a call, so the bench keeps its own pool: each
worker is a ``multiprocessing`` spawn process with a pipe to this one; it runs one episode
at a time (``target(job, calls)``; it holds the next one, ``AHEAD``), says ``("start",)``
when it begins one and ``("done", result)`` when it ends it. Agent calls send no message (a
fast agent makes hundreds a second): before each one the worker appends what it knows of
the episode to its progress file (a JSON line: the call's limit in words, the record's
fields, the new actions; read only if the episode is lost) and marks the call in flight in
shared memory (its slot: the call's number and timeout; 0 between calls). This process
waits on the pipes and the processes' sentinels, waking at least every ``TICK_S`` while
workers are busy, and

- kills a worker whose call has stayed in flight longer than its timeout (the only reliable
  way to abandon a hung call in Python, even one stuck in C code that holds the GIL): a
  ``Lost("time_limit", ...)`` outcome;
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
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import count
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, TypeVar

from .calls import AgentCalls, abandoned, last_line

T = TypeVar("T")
#: Seconds an episode may run past its time limit outside agent calls before it is abandoned.
ENV_GRACE_S = 30.0
#: How often a worker checks that its parent lives (where prctl cannot tell it).
PARENT_CHECK_S = 0.5
#: Workers that die before they begin any episode, in a row with none done, stop the run.
STARTUP_DEATHS = 3
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
#: How often this process looks at the workers' calls in flight (seconds).
TICK_S = 0.1
#: Jobs a worker holds beyond the one it runs.
AHEAD = 1
#: Record fields a worker writes before each agent call (and the new actions).
PROGRESS_KEYS = ("instruction", "steps", "tokens_in", "tokens_out", "latency_s")


@dataclass
class Lost:
    """An episode whose worker died or was killed: the failure ("crash", "time_limit"), its
    detail, the record fields the worker wrote (``PROGRESS_KEYS`` and ``actions``) and the
    seconds since the worker began it (or since the worker started, if it never did)."""

    failure: str
    detail: str
    progress: dict[str, Any]
    elapsed_s: float


class WorkerCalls(AgentCalls):
    """A worker's agent calls: each marked in flight in the worker's slot (this process
    kills the worker when one stays there past its timeout), after what is known of the
    episode is appended to its progress file."""

    _seq = count(1)

    def __init__(self, seqs: Any, timeouts: Any, index: int, progress: str) -> None:
        self.seqs, self.timeouts, self.index, self.path = seqs, timeouts, index, progress
        self.sent = 0
        self.fd: int | None = None

    def begin(self) -> None:
        """A new episode: its progress file starts empty (emptied through the fd the worker
        keeps: on ext4 an ``O_TRUNC`` open of a written file costs milliseconds)."""
        self.sent = 0
        try:
            if self.fd is None:
                self.fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.ftruncate(self.fd, 0)
            os.lseek(self.fd, 0, os.SEEK_SET)
        except OSError:
            self.fd = None  # no progress file: a lost episode's record has no actions

    def call(self, fn: Callable[[], T], timeout_s: float | None, what: str,
             record: Mapping[str, Any]) -> T:
        actions = list(record.get("actions", ())[self.sent:])
        line = {"what": what, **{k: record[k] for k in PROGRESS_KEYS if k in record},
                "actions": actions}
        if self.fd is not None:
            try:  # unbuffered: what was written survives the process
                os.write(self.fd, (json.dumps(line, default=str) + "\n").encode())
                self.sent += len(actions)
            except OSError:
                pass  # a full disk costs the record of a lost episode its progress only
        self.timeouts[self.index] = -1.0 if timeout_s is None else timeout_s
        self.seqs[self.index] = next(self._seq)  # after its timeout: this process reads it
        try:
            return super().call(fn, timeout_s, what, record)
        finally:
            self.seqs[self.index] = 0


def read_progress(path: str | Path) -> tuple[dict[str, Any], str]:
    """A progress file's record fields (``PROGRESS_KEYS`` and every action) and the last
    call's limit in words (a torn last line is skipped)."""
    progress: dict[str, Any] = {"actions": []}
    what = ""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return progress, what
    for line in text.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        what = str(item.pop("what", what))
        actions = item.pop("actions", [])
        progress.update({k: v for k, v in item.items() if k in PROGRESS_KEYS})
        progress["actions"] += actions
    return progress, what


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


def _worker_main(conn: Connection, seqs: Any, timeouts: Any, index: int, progress: str,
                 parent_pid: int, target: Callable[[Any, AgentCalls], Any]) -> None:
    """A worker: episodes from ``conn`` until it closes or sends None."""
    if hasattr(os, "setpgrp"):
        os.setpgrp()
    _die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the bench's to handle
    calls = WorkerCalls(seqs, timeouts, index, progress)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            job = None
        if job is None:  # done: exit now, not after an agent's non-daemon threads
            _exit(0)
        conn.send(("start",))
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
    born: float
    jobs: deque[Any] = field(default_factory=deque)  #: sent, not done; the first one runs
    started: float | None = None  #: when it began ``jobs[0]`` ("start"); None: not yet
    began_any: bool = False  #: it began a job in its life
    seq: int = 0  #: its call in flight when last looked at
    seen: float = 0.0  #: when that call was first seen
    timeout: float = -1.0  #: that call's timeout (-1: none)


class WorkerPool:
    """Up to ``workers`` processes running ``target(job, calls) -> result`` (both must
    pickle: module-level functions). ``limit_of(job)``: the job's episode time limit in
    seconds (None: none). Each worker holds ``AHEAD`` jobs beyond the one it runs, so it
    never waits for this process between episodes (a job it had not begun when it died goes
    to another). ``folder``: where the workers' progress files go (default: a temporary
    folder), removed at ``close``. Use it as a context manager; ``run`` yields ``(job,
    result)``, or ``(job, Lost)`` for an episode its worker did not finish."""

    def __init__(self, workers: int, target: Callable[[Any, AgentCalls], Any],
                 limit_of: Callable[[Any], float | None],
                 folder: str | Path | None = None) -> None:
        self.size = workers
        self.target = target
        self.limit_of = limit_of
        self.context = multiprocessing.get_context("spawn")
        self.seqs = self.context.RawArray("q", workers)
        self.timeouts = self.context.RawArray("d", workers)
        if folder is None:
            self.folder = tempfile.mkdtemp(prefix="phone-gym-bench-")
        else:  # a killed run's files stay there until the next run
            self.folder = str(folder)
            os.makedirs(self.folder, exist_ok=True)
        self.workers: dict[int, _Worker] = {}
        self.queue: deque[Any] = deque()
        self.finished = 0
        self.startup_deaths = 0

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _progress_file(self, index: int) -> str:
        return os.path.join(self.folder, f"worker-{index}.jsonl")

    # --- workers --------------------------------------------------------------------------
    def _start(self, index: int) -> None:
        ours, theirs = self.context.Pipe()
        self.seqs[index] = 0
        process = self.context.Process(
            target=_worker_main, name=f"phone-gym-bench-{index}",
            args=(theirs, self.seqs, self.timeouts, index, self._progress_file(index),
                  os.getpid(), self.target))
        process.start()
        theirs.close()  # the worker's end: its death closes the pipe
        self.workers[index] = _Worker(index, process, ours, time.monotonic())
        self._fill(self.workers[index], 1)

    def _fill(self, worker: _Worker, hold: int) -> None:
        """Send ``worker`` jobs until it holds ``hold``."""
        while self.queue and len(worker.jobs) < hold:
            job = self.queue.popleft()
            try:
                worker.conn.send(job)
            except OSError:  # it died: its sentinel tells; the job goes to another
                self.queue.appendleft(job)
                return
            worker.jobs.append(job)

    def _retire(self, worker: _Worker, kill: bool) -> None:
        """Stop ``worker`` (``kill``: at once); the jobs it had not begun go back first."""
        del self.workers[worker.index]
        self.queue.extendleft(reversed(worker.jobs))
        worker.jobs.clear()
        if not kill:
            try:
                worker.conn.send(None)
                worker.process.join(2)
            except OSError:
                pass
        _kill(worker.process)
        worker.conn.close()

    def close(self) -> None:
        """End every worker (idle ones are told to stop, busy ones killed)."""
        for worker in list(self.workers.values()):
            self._retire(worker, kill=bool(worker.jobs))
        shutil.rmtree(self.folder, ignore_errors=True)

    # --- the run ---------------------------------------------------------------------------
    def _lost(self, worker: _Worker, failure: str, detail: str | None) -> tuple[Any, Lost]:
        """``worker``'s current episode, lost (``detail`` None: its call's limit)."""
        progress, what = read_progress(self._progress_file(worker.index))
        since = worker.started if worker.started is not None else worker.born
        lost = Lost(failure, detail if detail is not None else abandoned(what), progress,
                    time.monotonic() - since)
        worker.started = None
        return worker.jobs.popleft(), lost

    def _messages(self, worker: _Worker) -> list[tuple[Any, Any]]:
        """Read what ``worker`` sent; the outcomes of finished episodes."""
        out: list[tuple[Any, Any]] = []
        try:
            while worker.jobs and worker.conn.poll():
                message = worker.conn.recv()
                if message[0] == "start":
                    worker.started, worker.began_any = time.monotonic(), True
                elif message[0] == "done":
                    out.append((worker.jobs.popleft(), message[1]))
                    worker.started = None
                    self.finished += 1
                    self.startup_deaths = 0
                else:  # "lost": it raised outside agent calls and ends
                    out.append(self._lost(worker, "crash", message[1]))
                    self._retire(worker, kill=True)
        except (EOFError, OSError):
            pass  # it died: its sentinel tells
        return out

    def _check(self, worker: _Worker, now: float) -> tuple[Any, Lost] | None:
        """Kill ``worker`` if its episode overran; the outcome then."""
        seq = self.seqs[worker.index]
        if seq != worker.seq:  # a new call (or none) since the last look
            worker.seq, worker.seen, worker.timeout = seq, now, self.timeouts[worker.index]
        if worker.started is None:
            return None
        if seq and 0 <= worker.timeout <= now - worker.seen:
            outcome = self._lost(worker, "time_limit", None)
            self._retire(worker, kill=True)
            return outcome
        limit = self.limit_of(worker.jobs[0])
        if limit is not None and now >= worker.started + limit + ENV_GRACE_S:
            outcome = self._lost(worker, "time_limit", (
                f"the episode ran over the time limit of {limit:g} s by more than "
                f"{ENV_GRACE_S:g} s outside agent calls and was abandoned (not scored)"))
            self._retire(worker, kill=True)
            return outcome
        return None

    def _dead(self, worker: _Worker) -> tuple[Any, Lost] | None:
        """Handle a worker that ended; the outcome of the episode it ran, if any (one it
        had not begun goes to another worker, unless it never began any: then it could not
        start, and its first job is its crash)."""
        worker.process.join(10)
        code = worker.process.exitcode
        outcome = None
        if worker.jobs and (worker.started is not None or not worker.began_any):
            if not worker.began_any:
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
        self.queue.extend(jobs)
        self._deal()
        while self.workers:
            busy = list(self.workers.values())
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy],
                             TICK_S))
            now = time.monotonic()
            outcomes: list[tuple[Any, Any]] = []
            for worker in busy:
                dead = worker.process.sentinel in ready
                if dead or worker.conn in ready:
                    outcomes += self._messages(worker)
                if worker.index in self.workers:
                    lost = self._dead(worker) if dead else self._check(worker, now)
                    outcomes += [lost] if lost is not None else []
            self._deal()
            yield from outcomes

    def _deal(self) -> None:
        """Jobs to every worker without one (a new worker where one is missing), then one
        ahead each while more jobs wait than there are workers (near the end a job held
        behind a long episode would keep another worker idle); idle workers stop."""
        for index in range(self.size):
            found = self.workers.get(index)
            if found is None and self.queue:
                self._start(index)
            elif found is not None:
                self._fill(found, 1)
        for worker in list(self.workers.values()):
            if len(self.queue) >= self.size:
                self._fill(worker, 1 + AHEAD)
            elif not worker.jobs:
                self._retire(worker, kill=False)
