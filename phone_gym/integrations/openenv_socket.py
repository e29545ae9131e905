"""A WebSocket client connection driven in the caller's thread: no event loop, no thread.

``PhoneEnvClient`` talks to a server on its own machine through ``BlockingWebSocket``:
websockets' sans-I/O ``ClientProtocol`` (the protocol its asyncio and threaded clients run,
https://websockets.readthedocs.io/en/stable/howto/sansio.html) over a blocking socket, read
and written by the thread that sends the message. OpenEnv's ``SyncEnvClient`` runs each call
on an event loop in a thread of its own: a step then crosses two threads and an event
loop each way, which cost more CPU than the step's messages. Same handshake (headers,
``permessage-deflate`` when asked), same frames, same limits (``max_size``); ping frames
are answered when the next message is read.
"""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Mapping

from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.extensions.permessage_deflate import enable_client_permessage_deflate
from websockets.frames import Frame, Opcode
from websockets.http11 import USER_AGENT, Response
from websockets.protocol import State
from websockets.uri import parse_uri

__all__ = ["BlockingWebSocket"]

#: Bytes asked of the socket per read (a raw frame's changed rows are ~1 MB).
READ_SIZE = 1 << 18
#: Seconds to wait for a closing server to finish closing.
CLOSE_WAIT_S = 2.0


class BlockingWebSocket:
    """One client WebSocket connection (``ws://`` or ``wss://``) whose ``send`` and ``recv``
    block the calling thread; ``recv`` waits at most ``timeout`` seconds (``TimeoutError``).
    A closed connection raises websockets' ``ConnectionClosed``; a refused handshake its
    ``InvalidStatus`` (the response, body included), as websockets' own clients do."""

    def __init__(self, url: str, *, open_timeout: float | None, max_size: int | None,
                 headers: Mapping[str, str] | None = None, compression: bool = False) -> None:
        uri = parse_uri(url)
        extensions = enable_client_permessage_deflate(None) if compression else None
        self.protocol = ClientProtocol(uri, extensions=extensions, max_size=max_size)
        self._events: deque[Frame] = deque()
        self._sock = socket.create_connection((uri.host, uri.port), timeout=open_timeout)
        try:
            self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if uri.secure:
                import ssl

                self._sock = ssl.create_default_context().wrap_socket(
                    self._sock, server_hostname=uri.host)
            self._handshake(dict(headers or {}), open_timeout)
        except BaseException:
            self._sock.close()
            raise

    def _handshake(self, headers: dict[str, str], timeout: float | None) -> None:
        request = self.protocol.connect()
        request.headers.update(headers)
        request.headers.setdefault("User-Agent", USER_AGENT)
        self.protocol.send_request(request)
        self._flush()
        end = None if timeout is None else time.monotonic() + timeout
        answered = False
        while not answered and self.protocol.state is State.CONNECTING:
            self._read(end)
            events = self.protocol.events_received()
            answered = bool(events) and isinstance(events[0], Response)
            # frames that came with the response (a full server's error, then its close)
            self._events.extend(e for e in events[answered:] if isinstance(e, Frame))
        if self.protocol.handshake_exc is not None:
            raise self.protocol.handshake_exc
        if not answered:
            raise InvalidHandshake("the server closed the connection during the handshake")

    def _flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                self._sock.sendall(data)
            else:  # the protocol's end of stream
                try:
                    self._sock.shutdown(socket.SHUT_WR)
                except OSError:
                    pass

    def _read(self, end: float | None) -> None:
        """One read from the socket into the protocol (and its replies: pong, close)."""
        if end is not None:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("timed out waiting for the server's message")
            self._sock.settimeout(left)
        else:
            self._sock.settimeout(None)
        try:
            data = self._sock.recv(READ_SIZE)
        except TimeoutError:
            raise TimeoutError("timed out waiting for the server's message") from None
        except OSError:
            data = b""
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
        self._flush()

    def _closed(self) -> ConnectionClosed:
        """The ``ConnectionClosed`` of a connection the server is closing, once it has
        (what it sent before stays to be read), or after ``CLOSE_WAIT_S``."""
        end = time.monotonic() + CLOSE_WAIT_S
        while self.protocol.state is not State.CLOSED:
            try:
                self._read(end)
            except TimeoutError:
                self.protocol.receive_eof()
            self._events.extend(e for e in self.protocol.events_received()
                                if isinstance(e, Frame))
        return self.protocol.close_exc

    def send(self, message: str | bytes) -> None:
        """Send a text (``str``) or binary message."""
        if self.protocol.state is not State.OPEN:
            raise self._closed()
        if isinstance(message, str):
            self.protocol.send_text(message.encode())
        else:
            self.protocol.send_binary(message)
        self._flush()

    def recv(self, timeout: float | None = None) -> str | bytes:
        """The next text (``str``) or binary message, waiting at most ``timeout`` seconds."""
        end = None if timeout is None else time.monotonic() + timeout
        parts: list[bytes] = []
        text = False
        while True:
            while self._events:
                frame = self._events.popleft()
                if frame.opcode is Opcode.TEXT or frame.opcode is Opcode.BINARY:
                    text, parts = frame.opcode is Opcode.TEXT, [frame.data]
                elif frame.opcode is Opcode.CONT:
                    parts.append(frame.data)
                else:
                    continue  # ping, pong, close: the protocol answered them
                if frame.fin:
                    data = parts[0] if len(parts) == 1 else b"".join(parts)
                    return bytes(data).decode() if text else bytes(data)
            if self.protocol.state is State.CLOSED:
                raise self.protocol.close_exc
            self._read(end)
            self._events.extend(e for e in self.protocol.events_received()
                                if isinstance(e, Frame))

    def close(self, timeout: float = CLOSE_WAIT_S) -> None:
        """Wait up to ``timeout`` for the server to close (OpenEnv's server closes after a
        ``close`` message), else close from this side; then the socket."""
        try:
            end = time.monotonic() + timeout
            while self.protocol.state is State.OPEN:
                try:
                    self._read(end)
                except TimeoutError:
                    self.protocol.send_close()
                    self._flush()
                    break
                self.protocol.events_received()
        except OSError:
            pass
        finally:
            self._sock.close()
