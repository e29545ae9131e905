"""What phone-gym's servers check on every HTTP and WebSocket request, so that no web page
can drive a phone: the OpenEnv server (``phone-gym serve``) and the play page
(``phone-gym play``) both call ``AccessPolicy.check``.

- **Host** (DNS rebinding): a loopback name (``127.0.0.1``, ``localhost``, ``[::1]``), the
  address the server listens on with its port, or the host of an ``--allow-origin`` origin.
- **Origin** (other pages in the same browser): a request that carries one comes from
  ``http://127.0.0.1:PORT``, ``http://localhost:PORT``, ``http://[::1]:PORT``, the served
  address, or an ``--allow-origin`` origin; any other (``null`` included) is refused.
- **A per-launch token** (``secrets.token_urlsafe``), as Jupyter's: the printed URL holds it
  (``http://127.0.0.1:8765/?token=...``), and each request sends it as the ``token`` query
  parameter, ``Authorization: Bearer TOKEN`` or the cookie a page gets on its first load
  (``HttpOnly; SameSite=Strict``, named per port). ``--no-token`` turns it off.

A request without an Origin (curl, Python clients) passes on its token alone. JSON endpoints
take ``Content-Type: application/json`` only (``json_refusal``): a cross-site form or
``text/plain`` POST, which a browser sends without asking, is refused. This module is plain
Python over header values; each server's framework calls it.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["JSON_TYPE", "LOOPBACK_NAMES", "TOKEN_PARAM", "AccessPolicy", "Refusal",
           "cookie_name", "json_refusal", "new_token", "normalize_origin", "served_url",
           "split_token"]

LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::"})  # listen on all: not an address to browse
TOKEN_PARAM = "token"
JSON_TYPE = "application/json"


@dataclass(frozen=True)
class Refusal:
    """Why a request is refused: the HTTP status and one line saying what to do."""

    status: int
    message: str


def new_token() -> str:
    """A fresh per-launch token (``secrets.token_urlsafe``: 43 URL- and cookie-safe chars)."""
    return secrets.token_urlsafe(32)


def cookie_name(port: int) -> str:
    """The token cookie of the server on ``port`` (cookies ignore ports: one name each)."""
    return f"phone_gym_token_{port}"


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _split_origin(value: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an origin ``scheme://host[:port]``, None if it is not one."""
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return None
    if (parts.scheme not in ("http", "https") or not parts.hostname or parts.username
            or parts.password or parts.path not in ("", "/") or parts.query or parts.fragment
            or "@" in parts.netloc):
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def _split_host(value: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a Host header (``name``, ``name:port``, ``[v6]:port``)."""
    try:
        parts = urlsplit(f"http://{value}")
        port = parts.port
    except ValueError:
        return None
    if (not parts.hostname or parts.path or parts.query or parts.fragment
            or "@" in parts.netloc):
        return None
    return parts.hostname.lower(), port


def normalize_origin(value: str) -> str:
    """``value`` as a browser writes it in Origin (``http://myhost:8765``); ``ValueError``
    for anything that is not a scheme, a host and a port."""
    split = _split_origin(value.strip()) if isinstance(value, str) else None
    if split is None:
        raise ValueError(f"--allow-origin {value!r}; accepted: an origin, scheme://host[:port] "
                         "with no path (e.g. http://myhost:8765)")
    scheme, host, port = split
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{_url_host(host)}" + ("" if port == default else f":{port}")


def served_url(host: str, port: int, token: str | None, path: str = "/") -> str:
    """The URL a server prints: ``http://HOST:PORT/PATH?token=...`` (a wildcard host as
    127.0.0.1, where this machine's browser reaches it)."""
    name = "127.0.0.1" if host.strip("[]") in WILDCARD_HOSTS else host.strip("[]")
    query = f"?{urlencode({TOKEN_PARAM: token})}" if token else ""
    return f"http://{_url_host(name)}:{port}{path}{query}"


def split_token(url: str) -> tuple[str, str | None]:
    """``url`` without its ``token`` query parameter, and the token (None if absent)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    tokens = [v for k, v in query if k == TOKEN_PARAM]
    rest = urlencode([(k, v) for k, v in query if k != TOKEN_PARAM])
    return urlunsplit(parts._replace(query=rest)), (tokens[-1] if tokens else None)


def json_refusal(content_type: str | None) -> Refusal | None:
    """A refusal unless the request's Content-Type is ``application/json``."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media == JSON_TYPE:
        return None
    return Refusal(415, f"Content-Type {media or 'none'!r} refused: send the body as JSON with "
                        "Content-Type: application/json (a cross-site form or text/plain POST "
                        "is never accepted)")


def _bearer(authorization: str | None) -> str | None:
    scheme, _, value = (authorization or "").strip().partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


class AccessPolicy:
    """Host, Origin and token rules of one server (see the module docstring).

    ``token`` None: no token is asked for (``--no-token``). ``allow_origins`` widens the
    origins (and the Host names) accepted; ``server_host`` is the address the server
    listens on (a wildcard adds nothing: the request's own local address counts instead).
    """

    def __init__(self, token: str | None, allow_origins: Iterable[str] = (),
                 server_host: str | None = None) -> None:
        if token is not None and (not isinstance(token, str) or not token.strip()):
            raise ValueError(f"token={token!r}; accepted: a non-empty string, or None for no "
                             "token")
        if isinstance(allow_origins, str):
            allow_origins = [allow_origins]
        self.token = token
        self.allow_origins = tuple(normalize_origin(o) for o in allow_origins)
        self._extra = {o for o in map(_split_origin, self.allow_origins) if o is not None}
        host = (server_host or "").strip("[]").lower()
        self.server_host = None if host in WILDCARD_HOSTS else host

    def _own_names(self, local_ip: str) -> set[str]:
        """The names this server answers to with its port, besides the loopback names."""
        names = {self.server_host} if self.server_host else set()
        ip = local_ip.lower().removeprefix("::ffff:")
        if ip not in WILDCARD_HOSTS:
            names.add(ip)
        return names

    def check(self, *, host: str | None, origin: str | None, local: tuple[str, int],
              query_token: str | None = None, authorization: str | None = None,
              cookie_token: str | None = None) -> Refusal | None:
        """None when the request may go on, else why not. ``host``/``origin`` are the
        headers (None: absent; a repeated header: pass ``""``), ``local`` the address and
        port the request came in on, the rest the token as the request sent it."""
        local_ip, port = local
        own = self._own_names(local_ip)
        split = _split_host(host) if host is not None else None
        if split is None:
            return Refusal(400, f"Host header {host!r} is not a host[:port]: send the server's "
                                f"address, e.g. Host: 127.0.0.1:{port}")
        name, host_port = split
        if not (name in LOOPBACK_NAMES or (name in own and (host_port or 80) == port)
                or any(name == h and (host_port or (443 if s == "https" else 80)) == p
                       for s, h, p in self._extra)):
            return Refusal(403, f"Host {host!r} is not this server's address (a page that "
                                f"renamed it, DNS rebinding, is refused): browse "
                                f"http://127.0.0.1:{port}/, or restart the server with "
                                f"--allow-origin http://{host}")
        if origin is not None:
            allowed = {("http", n, port) for n in LOOPBACK_NAMES | own} | self._extra
            if _split_origin(origin) not in allowed:
                widen = ("a page with no origin (null) is never allowed" if origin == "null"
                         else f"to allow that page, restart the server with --allow-origin "
                              f"{origin}")
                return Refusal(403, f"cross-origin request from {origin!r} refused: this server "
                                    f"answers its own page (http://127.0.0.1:{port}) and "
                                    f"loopback origins only; {widen}")
        if self.token is not None:
            expected = self.token.encode()
            offered = (query_token, _bearer(authorization), cookie_token)
            if not any(t is not None and hmac.compare_digest(t.encode(), expected)
                       for t in offered):
                return Refusal(401, "missing or wrong token: open the URL the server printed "
                                    f"(http://127.0.0.1:{port}/?token=...), or send "
                                    "Authorization: Bearer TOKEN")
        return None

    def set_cookie(self, port: int) -> str | None:
        """The Set-Cookie value that hands a page the token (None without a token)."""
        if self.token is None:
            return None
        return f"{cookie_name(port)}={self.token}; Path=/; HttpOnly; SameSite=Strict"
