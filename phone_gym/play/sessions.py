"""The play server's sessions: one ``PlaySession`` per browser tab, each with its own env,
episode and recording, so that a new episode in one tab never drops another's and each
click lands in its own tab's episode.

A tab asks for a session once (``open``) and sends its id with every request (the page keeps
it in ``sessionStorage``: a reload keeps it, another tab gets its own). At most
``max_sessions`` are open at once (1 on a real phone: it is one), and a session nobody used
for ``idle_timeout_s`` is closed (``reap``), its unfinished episode dropped as
``new_episode`` drops one; a tab may also take over the session unused the longest when all
are taken (a tab closed for good holds its session until it idles out). Episodes take the
plan's (task, seed) pairs in turn across all tabs, and finished episodes append to the one
export folder one at a time.
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .session import EpisodePlan, PlaySession

#: Seconds a tab's session may go unused before it is closed (``--idle-timeout``).
IDLE_TIMEOUT_S = 600.0
#: Most sessions (tabs) at once on PhoneWorld (``--max-sessions``; 1 with ``--real``).
MAX_SESSIONS = 8


class SessionsFull(RuntimeError):
    """Every session is taken: the message says what to do."""


class PlaySessions:
    """The open sessions of one play server (thread-safe).

    ``make_env``, ``out_dir``, ``plan`` and ``source`` are each session's (see
    ``PlaySession``); ``clock`` is for tests.
    """

    def __init__(self, make_env: Callable[[str | None], Any], out_dir: str | Path,
                 plan: EpisodePlan | None = None, source: str = "play", *,
                 max_sessions: int = MAX_SESSIONS, idle_timeout_s: float = IDLE_TIMEOUT_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not isinstance(max_sessions, int) or isinstance(max_sessions, bool) or max_sessions < 1:
            raise ValueError(f"max_sessions={max_sessions!r}; accepted: a positive int")
        if not (isinstance(idle_timeout_s, (int, float)) and idle_timeout_s > 0):
            raise ValueError(f"idle_timeout_s={idle_timeout_s!r}; accepted: seconds > 0")
        self.make_env, self.plan, self.source = make_env, plan or EpisodePlan(), source
        self.out = Path(out_dir)
        self.max_sessions, self.idle_timeout_s, self.clock = max_sessions, idle_timeout_s, clock
        self._lock = threading.Lock()
        self._record_lock = threading.Lock()  # one episode appended to the folder at a time
        self._counter = itertools.count()
        self._sessions: dict[str, PlaySession] = {}
        self._used: dict[str, float] = {}
        self._unclaimed: list[str] = []  # warmed up before any tab asked (the command)
        self._opening = 0

    def _next_episode(self) -> int:
        with self._lock:
            return next(self._counter)

    def _new_session(self) -> PlaySession:
        return PlaySession(self.make_env, self.out, self.plan, self.source,
                           next_index=self._next_episode, record_lock=self._record_lock)

    def _start(self) -> tuple[str, PlaySession]:
        """A new session with its first episode started, counted against the limit."""
        with self._lock:
            if len(self._sessions) + self._opening >= self.max_sessions:
                raise SessionsFull(
                    f"all {self.max_sessions} play session(s) are in use, one per tab"
                    f"{' (a real phone is one)' if self.max_sessions == 1 else ''}: use "
                    f"another tab, take over the one unused the longest (its episode is "
                    f"dropped), or wait: an unused one closes after {self.idle_timeout_s:g} s "
                    "(--idle-timeout)")
            self._opening += 1
        session = None
        try:
            session = self._new_session()
            session.new_episode()
        except BaseException:
            if session is not None:
                session.close()
            with self._lock:
                self._opening -= 1
            raise
        session_id = secrets.token_urlsafe(16)
        with self._lock:
            self._opening -= 1
            self._sessions[session_id] = session
            self._used[session_id] = self.clock()
        return session_id, session

    def warm(self) -> PlaySession:
        """Start a session and its first episode now (a bad task or no phone fails here, at
        launch); the first tab that opens a session takes it."""
        session_id, session = self._start()
        with self._lock:
            self._unclaimed.append(session_id)
        return session

    def open(self, take_over: bool = False) -> tuple[str, PlaySession]:
        """A session for a new tab: its id and session (a warmed one first). Idle ones are
        closed first; when every one is taken, ``take_over`` closes the one unused the
        longest (the person asked: e.g. a closed tab's, on a real phone), else
        ``SessionsFull``."""
        self.reap()
        victim = None
        with self._lock:
            while self._unclaimed:
                session_id = self._unclaimed.pop(0)
                if session_id in self._sessions:
                    self._used[session_id] = self.clock()
                    return session_id, self._sessions[session_id]
            full = len(self._sessions) + self._opening >= self.max_sessions
            if take_over and full and self._used:
                victim = self._pop(min(self._used, key=self._used.__getitem__))
        if victim is not None:
            victim.close()
        return self._start()

    def get(self, session_id: str) -> PlaySession:
        """The session of a tab (now used); ``KeyError`` if it is unknown or closed."""
        with self._lock:
            if session_id in self._unclaimed or session_id not in self._sessions:
                raise KeyError(session_id)
            self._used[session_id] = self.clock()
            return self._sessions[session_id]

    def reap(self) -> list[str]:
        """Close the sessions unused for ``idle_timeout_s``; their ids."""
        now = self.clock()
        with self._lock:
            idle = [sid for sid, used in self._used.items()
                    if now - used > self.idle_timeout_s]
            closing = [self._pop(sid) for sid in idle]
        for session in closing:
            session.close()  # waits for a step in flight (the session's lock)
        return idle

    def _pop(self, session_id: str) -> PlaySession:
        self._used.pop(session_id, None)
        if session_id in self._unclaimed:
            self._unclaimed.remove(session_id)
        return self._sessions.pop(session_id)

    def close(self) -> None:
        """Close every session."""
        with self._lock:
            closing = [self._pop(sid) for sid in list(self._sessions)]
        for session in closing:
            session.close()

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)
