"""The play page's web server (aiohttp, the ``play`` extra): the page and its script from
``static/`` (no build step, nothing from a CDN), a small JSON API over ``PlaySessions`` (one
session per browser tab), and the recorded episodes' frames for the replay view.

Routes: ``GET /`` the play page, ``GET /replay`` the replay view, ``POST /api/session`` (a
new tab's session: its id and first state; ``{"take_over": true}`` closes the session unused
the longest when all are taken, 503 without), ``GET /api/state``, ``GET /api/frame.png``,
``POST /api/action`` (a page action as JSON), ``POST /api/new`` (the tab's next episode),
``GET /api/episodes``, ``GET /api/episodes/{id}`` and ``GET /frames/{id}/{file}.png`` (a
recorded frame). The tab's session id comes in the ``X-Play-Session`` header (or the
``session`` query parameter, for the frame image); an unknown or closed one is 410 with
``"code": "no_session"``, and the page then opens a new one.

Every request passes ``phone_gym.serving.AccessPolicy`` (Host, Origin, the per-launch token:
the page's first load, ``/?token=...``, sets it as a cookie), POSTs must be
``application/json`` and arrive whole within ``request_timeout_s`` (408), and a connection
whose request headers have not arrived by then is closed (aiohttp's keep-alive timer, armed
when a connection opens and after each response, closes a handler still waiting for one).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from ..serving import TOKEN_PARAM, AccessPolicy, cookie_name, json_refusal, new_token, served_url
from ..trajectory.format import TrajectoryError
from .session import EPISODE_ID, PlaySession, list_recorded, recorded_steps
from .sessions import PlaySessions, SessionsFull

try:
    from aiohttp import web
except ImportError as exc:  # the play extra is missing
    raise ImportError('phone-gym play needs aiohttp: pip install "phone-gym[play]" (in a '
                      'checkout: pip install -e ".[play]")', name="aiohttp") from exc

STATIC = Path(__file__).with_name("static")
FRAME_FILE = re.compile(r"[0-9]{3}\.png|final\.png")
SESSION_HEADER = "X-Play-Session"
SESSION_PARAM = "session"
#: Seconds a request's headers, or a POST's body, may take to arrive.
REQUEST_TIMEOUT_S = 30.0


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})


def _failure(exc: BaseException) -> str:
    """One line for an env failure (a phone that stopped answering, ...)."""
    return f"{type(exc).__name__}: {exc} (check the phone, then start a new episode)"


def _one(request: web.Request, name: str) -> str | None:
    """A header that must not repeat (``""`` when it does: refused)."""
    values = request.headers.getall(name, [])
    return None if not values else values[0] if len(values) == 1 else ""


def _local(request: web.Request) -> tuple[str, int]:
    """The address and port the request came in on."""
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    return (str(sockname[0]), int(sockname[1])) if sockname else ("", 0)


def make_app(sessions: PlaySessions, policy: AccessPolicy,
             request_timeout_s: float = REQUEST_TIMEOUT_S) -> web.Application:
    """The aiohttp application serving ``sessions`` under ``policy``: env calls run in a
    worker thread (each session's lock serialises its own), so frames keep loading while a
    phone is slow, and one tab's step never waits for another's."""

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    @web.middleware
    async def guard(request: web.Request, handler: Any) -> web.StreamResponse:
        local = _local(request)
        query_token = request.query.get(TOKEN_PARAM)
        refusal = policy.check(
            host=_one(request, "Host"), origin=_one(request, "Origin"), local=local,
            query_token=query_token, authorization=request.headers.get("Authorization"),
            cookie_token=request.cookies.get(cookie_name(local[1])))
        if refusal is None and request.method == "POST":
            refusal = json_refusal(request.headers.get("Content-Type"))
        if refusal is not None:
            return _json({"error": refusal.message, "code": "refused"}, refusal.status)
        if request.method == "POST":  # read whole now, or never: a stalled body is dropped
            try:
                await asyncio.wait_for(request.read(), request_timeout_s)
            except asyncio.TimeoutError:
                response = _json({"error": "the request body did not arrive in time: send it "
                                           "whole"}, 408)
                response.force_close()
                return response
        response = await handler(request)
        cookie = policy.set_cookie(local[1]) if query_token is not None else None
        if cookie is not None and request.method == "GET":  # a page's first load
            response.headers.add("Set-Cookie", cookie)
        return response

    def tab(request: web.Request) -> PlaySession:
        """The session of the tab that sent ``request``, or a 400/410 answer."""
        session_id = request.headers.get(SESSION_HEADER) or request.query.get(SESSION_PARAM)
        if not session_id:
            raise web.HTTPBadRequest(text=json.dumps({
                "error": f"no session: open one with POST /api/session, then send its id in "
                         f"{SESSION_HEADER}", "code": "no_session"}),
                content_type="application/json")
        try:
            return sessions.get(session_id)
        except KeyError:
            raise web.HTTPGone(text=json.dumps({
                "error": f"this tab's session is closed (unused for over "
                         f"{sessions.idle_timeout_s:g} s, or the server restarted): reload "
                         "the page for a new one", "code": "no_session"}),
                content_type="application/json") from None

    async def page(request: web.Request) -> web.StreamResponse:
        name = "replay.html" if request.path == "/replay" else "play.html"
        return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

    async def open_session(request: web.Request) -> web.StreamResponse:
        try:
            data = await request.json()
        except json.JSONDecodeError:
            data = None
        take_over = data.get("take_over", False) if isinstance(data, dict) else None
        if not isinstance(take_over, bool):
            return _json({"error": "send {} or {\"take_over\": true} (close the session "
                                   "unused the longest when every one is taken)"}, 400)
        try:
            session_id, session = await run(sessions.open, take_over)
            return _json({"session": session_id, "state": await run(session.state)})
        except SessionsFull as exc:
            return _json({"error": str(exc), "code": "full"}, 503)
        except Exception as exc:  # noqa: BLE001 - a phone gone away: shown on the page
            return _json({"error": _failure(exc)}, 500)

    async def state(request: web.Request) -> web.StreamResponse:
        return _json(await run(tab(request).state))

    async def frame(request: web.Request) -> web.StreamResponse:
        try:
            png = await run(tab(request).frame_png)
        except ValueError as exc:
            return _json({"error": str(exc)}, 409)
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "no-store"})

    async def action(request: web.Request) -> web.StreamResponse:
        session = tab(request)
        try:
            data = await request.json()
        except json.JSONDecodeError:
            return _json({"error": "the body is not JSON: send {\"action\": ..., ...}"}, 400)
        if not isinstance(data, dict):
            return _json({"error": "the body must be a JSON object"}, 400)
        try:
            return _json(await run(session.act, data))
        except ValueError as exc:
            return _json({"error": str(exc)}, 400)
        except Exception as exc:  # noqa: BLE001 - a phone gone away: shown on the page
            return _json({"error": _failure(exc)}, 500)

    async def new(request: web.Request) -> web.StreamResponse:
        session = tab(request)
        try:
            return _json(await run(session.new_episode))
        except Exception as exc:  # noqa: BLE001 - as above
            return _json({"error": _failure(exc)}, 500)

    async def episodes(request: web.Request) -> web.StreamResponse:
        try:
            found = await run(list_recorded, sessions.out)
        except TrajectoryError as exc:  # a tampered or broken recording: say which line
            return _json({"error": f"{exc} (fix or move that file)"}, 422)
        return _json({"out": str(sessions.out), "episodes": found})

    async def episode(request: web.Request) -> web.StreamResponse:
        episode_id = request.match_info["episode_id"]
        try:
            return _json(await run(recorded_steps, sessions.out, episode_id))
        except KeyError:
            return _json({"error": f"no recorded episode {episode_id!r} in {sessions.out}"},
                         404)
        except TrajectoryError as exc:
            return _json({"error": f"{exc} (fix or move that file)"}, 422)

    async def recorded_frame(request: web.Request) -> web.StreamResponse:
        episode_id, name = request.match_info["episode_id"], request.match_info["name"]
        # only names the recorder writes: nothing outside frames/<episode>/ is reachable
        if not EPISODE_ID.fullmatch(episode_id) or not FRAME_FILE.fullmatch(name):
            raise web.HTTPNotFound()
        path = sessions.out / "frames" / episode_id / name
        if not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def reaper(app: web.Application) -> AsyncIterator[None]:
        """Close idle sessions in the background (a tab gone for good frees its env)."""
        interval = min(max(sessions.idle_timeout_s / 4, 0.05), 30.0)

        async def loop() -> None:
            while True:
                await asyncio.sleep(interval)
                await run(sessions.reap)

        task = asyncio.create_task(loop())
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    app = web.Application(middlewares=[guard])
    app.cleanup_ctx.append(reaper)
    app.router.add_get("/", page)
    app.router.add_get("/replay", page)
    app.router.add_static("/static", STATIC)
    app.router.add_post("/api/session", open_session)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/frame.png", frame)
    app.router.add_post("/api/action", action)
    app.router.add_post("/api/new", new)
    app.router.add_get("/api/episodes", episodes)
    app.router.add_get("/api/episodes/{episode_id}", episode)
    app.router.add_get("/frames/{episode_id}/{name}", recorded_frame)
    return app


class ServerThread:
    """``make_app(sessions, ...)`` served on ``host:port`` (0: any free port) from a
    background thread with its own event loop (the command, tests, scripts). ``url`` is the
    server's address once started, ``page_url`` the play page's with the token (what to
    open), ``token`` the token (None with ``require_token=False``)."""

    def __init__(self, sessions: PlaySessions, host: str = "127.0.0.1", port: int = 0, *,
                 require_token: bool = True, allow_origins: Sequence[str] = (),
                 request_timeout_s: float = REQUEST_TIMEOUT_S) -> None:
        if not request_timeout_s > 0:
            raise ValueError(f"request_timeout_s={request_timeout_s!r}; accepted: seconds > 0")
        self.sessions, self.host, self.port = sessions, host, port
        self.policy = AccessPolicy(new_token() if require_token else None, allow_origins, host)
        self.token = self.policy.token
        self.request_timeout_s = request_timeout_s
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def page_url(self, path: str = "/") -> str:
        """The URL of ``path`` with the token, as the command prints it."""
        return served_url(self.host, self.port, self.token, path)

    def start(self) -> ServerThread:
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=30)
        except BaseException:  # the port is taken: no loop left running
            self.stop()
            raise
        return self

    async def _start(self) -> None:
        app = make_app(self.sessions, self.policy, self.request_timeout_s)
        # keepalive_timeout: also the deadline of a request's headers; lingering_time: how
        # long the rest of a body is read after an early answer (the 408) before closing
        self._runner = web.AppRunner(app, keepalive_timeout=self.request_timeout_s,
                                     lingering_time=self.request_timeout_s)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self._runner.addresses:
            self.port = int(self._runner.addresses[0][1])
        self.url = served_url(self.host, self.port, None).rstrip("/")

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(30)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
