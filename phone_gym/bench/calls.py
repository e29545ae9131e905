"""The agent's calls of a bench episode (``bind``, ``reset``, ``act``) under deadlines.

``run_episode`` makes each agent call through an ``AgentCalls``: ``call(fn, timeout_s,
what, record)`` returns ``fn()``, or raises

- ``AgentRaised`` when ``fn`` raised a ``BaseException`` that is no ``Exception``
  (``SystemExit``, ``KeyboardInterrupt``): the episode is recorded as a "crash", the run goes
  on (an ``Exception`` is raised as it is);
- ``CallAbandoned`` when the call was still running at its deadline and was left behind
  (``ThreadCalls``): the episode is recorded as "time_limit", unscored.

``ThreadCalls`` runs the calls in a helper thread of this process and abandons a call that
overruns (the thread is left to end on its own, a daemon): for an agent that runs in this
process (one worker and an agent object). An agent that ends its process (``os._exit``, a
segfault) still ends this one: only a worker process isolates it (``workers.WorkerCalls``,
where the parent kills a worker whose call overran). Signals reach the main thread only, so
a ``KeyboardInterrupt`` in the helper thread is the agent's own; the user's Ctrl-C still
stops the run.
"""

from __future__ import annotations

import queue
import threading
import traceback
from collections.abc import Callable, Mapping
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")


class AgentRaised(Exception):
    """The agent raised a ``BaseException`` that is no ``Exception`` (e.g. ``SystemExit``)."""


class CallAbandoned(Exception):
    """An agent call ran past its deadline and was abandoned."""


def last_line(exc: BaseException) -> str:
    """The last line of ``exc``'s traceback: ``"SystemExit: 3"``."""
    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def abandoned(what: str) -> str:
    """The ``failure_detail`` of an episode whose agent call was abandoned."""
    return f"an agent call ran over {what} and was abandoned (the episode is not scored)"


def _reraise(error: BaseException) -> NoReturn:
    if isinstance(error, Exception):
        raise error
    raise AgentRaised(f"the agent raised {last_line(error)}") from None


class AgentCalls:
    """Calls ``fn`` on this thread (deadlines are the caller's: a worker's parent enforces
    them). ``BaseException``s become ``AgentRaised``: use it only where no signal turns into
    one (a worker process ignores SIGINT)."""

    def call(self, fn: Callable[[], T], timeout_s: float | None, what: str,
             record: Mapping[str, Any]) -> T:
        """``fn()``; ``timeout_s``: seconds it may take (None: no limit), ``what``: that
        limit in words ("the time limit of 5 s"), ``record``: the episode's record so far."""
        try:
            return fn()
        except Exception:
            raise
        except BaseException as exc:  # noqa: BLE001 - the agent's SystemExit is recorded
            raise AgentRaised(f"the agent raised {last_line(exc)}") from None

    def close(self) -> None:
        """Release what the calls hold."""


class _Box:
    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


class ThreadCalls(AgentCalls):
    """Each call runs in a helper thread (one for all calls, so an agent's thread-bound state
    stays on one thread; the caller's thread-local state, such as ``torch.no_grad()``, does
    not reach it); the caller waits until the deadline, then abandons the call and its
    thread (the next call starts a new one)."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], _Box] | None] | None = None

    def _thread(self) -> queue.SimpleQueue[tuple[Callable[[], Any], _Box] | None]:
        if self._jobs is None:
            jobs: queue.SimpleQueue[tuple[Callable[[], Any], _Box] | None] = queue.SimpleQueue()
            threading.Thread(target=_serve, args=(jobs,), name="phone-gym-bench-agent",
                             daemon=True).start()
            self._jobs = jobs
        return self._jobs

    def call(self, fn: Callable[[], T], timeout_s: float | None, what: str,
             record: Mapping[str, Any]) -> T:
        box = _Box()
        self._thread().put((fn, box))
        if not box.done.wait(timeout_s):
            self._jobs = None  # the thread stays with the abandoned call; none is sent there
            raise CallAbandoned(abandoned(what))
        if box.error is not None:
            _reraise(box.error)
        value: T = box.value
        return value

    def close(self) -> None:
        if self._jobs is not None:
            self._jobs.put(None)
            self._jobs = None


def _serve(jobs: queue.SimpleQueue[tuple[Callable[[], Any], _Box] | None]) -> None:
    while (item := jobs.get()) is not None:
        fn, box = item
        try:
            box.value = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            box.error = exc
        finally:
            box.done.set()
        del fn, box, item  # hold nothing of a finished call while waiting
