"""The OpenEnv server's guard, around OpenEnv's FastAPI app under uvicorn.

- ``GuardMiddleware`` (plain ASGI): every HTTP and WebSocket request passes
  ``phone_gym.serving.AccessPolicy`` (Host, Origin, token); a POST must be
  ``application/json``; a WebSocket whose client sends nothing for ``idle_timeout_s`` is
  closed (code 1001): OpenEnv sees its client leave and ends the session, so the env closes
  and its slot frees.
- ``deadline_protocol``: uvicorn's h11 protocol, which never times out a request that is
  still arriving (its keep-alive timer stops at the first byte and is not armed on a new
  connection), with a deadline: a connection whose request headers and body have not all
  arrived ``request_timeout_s`` after it opened or after the request's first byte is closed,
  with a 408 while the headers are incomplete.
- ``websocket_protocol``: uvicorn's WebSocket protocol, which reads on while fewer than
  ``ws_max_queue`` messages wait for the app, where uvicorn's stops reading after each.
- Binary frames: OpenEnv's ``/ws`` protocol is JSON text messages only (``HTTPEnvServer``'s
  ``websocket_endpoint`` reads ``receive_text`` and answers ``send_text``). A session whose
  client asked for binary frames (``openenv.PhoneEnvironment``'s ``frame_format``) gets
  each observation's screenshot as one binary WebSocket message right after the JSON that
  names it (``"frame_id"``): the env leaves the encoded frame in ``post_frame``'s outbox,
  and the guard, which sees every message the app sends, sends it after that text.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from contextlib import AbstractAsyncContextManager
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qs

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..serving import TOKEN_PARAM, AccessPolicy, Refusal, cookie_name, json_refusal

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Frames posted by envs and not yet sent (``post_frame``): id -> encoded bytes, oldest first.
_OUTBOX: dict[str, bytes] = {}
_OUTBOX_LOCK = threading.Lock()
#: The most frames the outbox holds; an older one (its session gone) is dropped.
OUTBOX_LIMIT = 64
#: How an observation (serialised by OpenEnv as JSON) names its binary frame; a quote in a
#: JSON string value is escaped, so no text of the observation matches.
_FRAME_REF = re.compile(r'"frame_id":"([0-9a-f]{32})"')


def post_frame(data: bytes) -> str:
    """Leave ``data`` to follow the observation that names the returned id (``frame_id``)
    as a binary WebSocket message."""
    frame_id = uuid.uuid4().hex
    with _OUTBOX_LOCK:
        _OUTBOX[frame_id] = data
        while len(_OUTBOX) > OUTBOX_LIMIT:
            del _OUTBOX[next(iter(_OUTBOX))]
    return frame_id


def take_frame(frame_id: str) -> bytes | None:
    """The frame posted as ``frame_id`` (removed from the outbox), or None."""
    with _OUTBOX_LOCK:
        return _OUTBOX.pop(frame_id, None)


def drop_frame(frame_id: str) -> None:
    """Forget a posted frame that will not be sent (an HTTP reply)."""
    take_frame(frame_id)


def with_frames(send: Send) -> Send:
    """``send`` that follows a text message naming a posted frame with the frame."""
    async def sending(message: Message) -> None:
        await send(message)
        text = message.get("text") if message["type"] == "websocket.send" else None
        if text and '"frame_id":"' in text:
            found = _FRAME_REF.search(text)
            data = take_frame(found.group(1)) if found else None
            if data is not None:
                await send({"type": "websocket.send", "bytes": data})
    return sending


class _Deadline:
    """``asyncio.timeout`` for Python 3.10: cancels the task ``seconds`` after entry and
    raises ``TimeoutError`` from that cancellation."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.handle: asyncio.TimerHandle | None = None
        self.fired = False

    async def __aenter__(self) -> _Deadline:
        if self.seconds is not None:
            task = asyncio.current_task()
            assert task is not None

            def fire() -> None:
                self.fired = True
                task.cancel()

            self.handle = asyncio.get_running_loop().call_later(self.seconds, fire)
        return self

    async def __aexit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if self.handle is not None:
            self.handle.cancel()
        if self.fired and kind is asyncio.CancelledError:
            raise asyncio.TimeoutError from None


def deadline(seconds: float | None) -> AbstractAsyncContextManager[Any]:
    """A time limit on the awaits in an ``async with`` block, made in the coroutine that
    enters it (``TimeoutError`` past it; None: no limit): one timer on the running task,
    where ``asyncio.wait_for`` makes a task per await (Python 3.11's ``asyncio.timeout``, or
    the same on 3.10)."""
    timeout = getattr(asyncio, "timeout", None)
    return timeout(seconds) if timeout is not None else _Deadline(seconds)


#: The close reason of a session that sat idle (a WebSocket reason is at most 123 bytes).
IDLE_REASON = "session closed: idle for {:g} s; connect again for a new one"


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name; a repeated Host or Origin becomes ``""``
    (refused: which one the browser meant is unknown)."""
    out: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", []):
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
        out[name] = "" if name in out and name in ("host", "origin") else value
    return out


def _cookie(header: str | None, name: str) -> str | None:
    if not header:
        return None
    try:
        morsel = SimpleCookie(header).get(name)
    except CookieError:
        return None
    return morsel.value if morsel is not None else None


class GuardMiddleware:
    """Checks each request of ``app`` against ``policy`` (see the module docstring)."""

    def __init__(self, app: ASGIApp, policy: AccessPolicy,
                 idle_timeout_s: float | None = None) -> None:
        self.app, self.policy, self.idle_timeout_s = app, policy, idle_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):  # lifespan
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        local_ip, port = (scope.get("server") or ("", 0))[:2]
        query_token = query.get(TOKEN_PARAM, [None])[-1]
        refusal = self.policy.check(
            host=headers.get("host"), origin=headers.get("origin"), local=(local_ip, port or 0),
            query_token=query_token, authorization=headers.get("authorization"),
            cookie_token=_cookie(headers.get("cookie"), cookie_name(port or 0)))
        if refusal is None and kind == "http" and scope.get("method") == "POST":
            refusal = json_refusal(headers.get("content-type"))
        if refusal is not None:
            refuse = _refuse_http if kind == "http" else _refuse_websocket
            await refuse(scope, receive, send, refusal)
            return
        if kind == "websocket":
            await self._websocket(scope, receive, send)
            return
        cookie = self.policy.set_cookie(port or 0) if query_token is not None else None
        if cookie is not None and scope.get("method") == "GET":  # a page's first load
            send = _with_header(send, b"set-cookie", cookie.encode("latin-1"))
        await self.app(scope, receive, send)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the WebSocket app; a wait for the client longer than ``idle_timeout_s`` reads
        as the client leaving, and the app's close then says why."""
        timeout = self.idle_timeout_s
        send = with_frames(send)
        if timeout is None:
            await self.app(scope, receive, send)
            return
        watch = IdleWatch(timeout)
        closed = False

        async def timed_receive() -> Message:
            try:
                return await watch.wait(receive())
            except asyncio.TimeoutError:
                return {"type": "websocket.disconnect", "code": 1001}

        async def closing_send(message: Message) -> None:
            nonlocal closed
            if message["type"] == "websocket.close":
                closed = True
                if watch.fired:
                    message = {**message, "code": 1001, "reason": IDLE_REASON.format(timeout)}
            await send(message)

        try:
            await self.app(scope, timed_receive, closing_send)
        finally:
            watch.stop()
        if watch.fired and not closed:
            await send({"type": "websocket.close", "code": 1001,
                        "reason": IDLE_REASON.format(timeout)})


_RESOLUTION = time.get_clock_info("monotonic").resolution


class IdleWatch:
    """A time limit of ``seconds`` on each ``wait`` of one task, kept by one timer for all
    of them: where a ``deadline`` per wait arms and cancels a timer each time, the timer
    here, when it comes due, checks the wait in progress (cancelled once it has lasted
    ``seconds``: ``TimeoutError``) and comes due again when that wait, or the next, would
    end."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.fired = False
        self._loop = asyncio.get_running_loop()
        self._task: asyncio.Task[Any] | None = None
        self._since = 0.0  # when the wait in progress began
        self._handle: asyncio.TimerHandle | None = None

    async def wait(self, awaitable: Awaitable[Message]) -> Message:
        """``await awaitable``, or ``TimeoutError`` once it has taken ``seconds``."""
        if self.fired:
            close = getattr(awaitable, "close", None)  # a coroutine never to be awaited
            if close is not None:
                close()
            raise asyncio.TimeoutError
        task = asyncio.current_task()
        assert task is not None
        self._task, self._since = task, self._loop.time()
        if self._handle is None:
            self._handle = self._loop.call_at(self._since + self.seconds, self._due)
        try:
            return await awaitable
        except asyncio.CancelledError:
            if not self.fired:
                raise
            uncancel = getattr(task, "uncancel", None)  # Python 3.11+: the cancel was ours
            if uncancel is not None:
                uncancel()
            raise asyncio.TimeoutError from None
        finally:
            self._task = None

    def _due(self) -> None:
        now = self._loop.time()
        if self._task is None:  # between waits: the next ends ``seconds`` after it begins
            self._handle = self._loop.call_at(now + self.seconds, self._due)
        elif now + _RESOLUTION >= self._since + self.seconds:  # a timer may run that early
            self._handle = None
            self.fired = True
            self._task.cancel()
        else:
            self._handle = self._loop.call_at(self._since + self.seconds, self._due)

    def stop(self) -> None:
        """Cancel the timer (the session ended)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None


def _with_header(send: Send, name: bytes, value: bytes) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", []), (name, value)]}
        await send(message)
    return sending


def _body(refusal: Refusal) -> bytes:
    return json.dumps({"detail": refusal.message}).encode()


async def _refuse_http(scope: Scope, receive: Receive, send: Send, refusal: Refusal) -> None:
    body = _body(refusal)
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    if refusal.status == 401:
        headers.append((b"www-authenticate", b"Bearer"))
    await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse_websocket(scope: Scope, receive: Receive, send: Send,
                            refusal: Refusal) -> None:
    """Refuse the handshake: an HTTP answer with the reason where the server can send one
    (the ASGI ``websocket.http.response`` extension), else a close, which is HTTP 403."""
    await receive()  # websocket.connect
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 1008})
        return
    body = _body(refusal)
    await send({"type": "websocket.http.response.start", "status": refusal.status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", b"%d" % len(body))]})
    await send({"type": "websocket.http.response.body", "body": body})


@functools.cache
def websocket_protocol() -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol (websockets' sans-I/O, what uvicorn picks by default)
    reading from the socket until ``ws_max_queue`` messages wait for the app (pass it as
    ``uvicorn.Config(ws=...)``): uvicorn's own stops reading after every message and
    starts again when the app takes it, two ``epoll_ctl`` calls and a new reader handle
    per message, where a client stepping an env sends one message at a time anyway."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import (
        WebSocketsSansIOProtocol,
    )

    class QueuedReadsProtocol(WebSocketsSansIOProtocol):  # type: ignore[misc]
        read_paused: bool

        def send_receive_event_to_app(self) -> None:
            paused = self.read_paused
            self.read_paused = True  # uvicorn's pauses reading only when not paused yet
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = paused
            if not paused and self.queue.qsize() >= max(1, self.config.ws_max_queue):
                self.read_paused = True
                self.transport.pause_reading()

    return QueuedReadsProtocol


_TIMEOUT_TEXT = b"the request did not arrive in time: send it whole\n"
REQUEST_TIMEOUT_RESPONSE = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; "
                            b"charset=utf-8\r\nconnection: close\r\ncontent-length: %d\r\n\r\n%s"
                            % (len(_TIMEOUT_TEXT), _TIMEOUT_TEXT))


def deadline_protocol(request_timeout_s: float) -> type[asyncio.Protocol]:
    """uvicorn's ``H11Protocol`` with a request deadline of ``request_timeout_s`` (pass it
    as ``uvicorn.Config(http=...)``)."""
    if not request_timeout_s > 0:
        raise ValueError(f"request_timeout_s={request_timeout_s!r}; accepted: seconds > 0")

    class DeadlineH11Protocol(H11Protocol):  # type: ignore[misc]
        _deadline: asyncio.TimerHandle | None = None
        _upgraded = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()  # the first request is due: a silent connection is closed too

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._watch()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._upgraded = True  # the transport is the WebSocket protocol's now
            self._disarm()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _watch(self) -> None:
            """Armed while a request is partly in (headers or body), else not."""
            if self._upgraded or self.transport.is_closing():
                self._disarm()
                return
            state = self.conn.their_state
            if state is h11.SEND_BODY or (state is h11.IDLE and self.conn.trailing_data[0]):
                self._arm()
            else:
                self._disarm()

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(request_timeout_s, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            if self._upgraded or self.transport.is_closing():
                return
            if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
                self.transport.write(REQUEST_TIMEOUT_RESPONSE)  # headers begun, not ended
            self.transport.close()  # a body still coming: the app reads a disconnect

    return DeadlineH11Protocol
