"""The play page's web server (aiohttp, the ``play`` extra): the page and its script from
``static/`` (no build step, nothing from a CDN), a small JSON API over a ``PlaySession``,
and the recorded episodes' frames for the replay view.

Routes: ``GET /`` the play page, ``GET /replay`` the replay view, ``GET /api/state``,
``GET /api/frame.png``, ``POST /api/action`` (a page action as JSON), ``POST /api/new``
(the next episode), ``GET /api/episodes``, ``GET /api/episodes/{id}`` and
``GET /frames/{id}/{file}.png`` (a recorded frame).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .session import EPISODE_ID, PlaySession, list_recorded, recorded_steps

try:
    from aiohttp import web
except ImportError as exc:  # the play extra is missing
    raise ImportError('phone-gym play needs aiohttp: pip install "phone-gym[play]" (in a '
                      'checkout: pip install -e ".[play]")', name="aiohttp") from exc

STATIC = Path(__file__).with_name("static")
FRAME_FILE = re.compile(r"[0-9]{3}\.png|final\.png")


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers={"Cache-Control": "no-store"})


def _failure(exc: BaseException) -> str:
    """One line for an env failure (a phone that stopped answering, ...)."""
    return f"{type(exc).__name__}: {exc} (check the phone, then start a new episode)"


def make_app(session: PlaySession) -> web.Application:
    """The aiohttp application serving ``session``: env calls run in a worker thread (the
    session's lock serialises them), so frames keep loading while a phone is slow."""

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def page(request: web.Request) -> web.StreamResponse:
        name = "replay.html" if request.path == "/replay" else "play.html"
        return web.FileResponse(STATIC / name, headers={"Cache-Control": "no-store"})

    async def state(request: web.Request) -> web.StreamResponse:
        if not session.episode_id:
            return _json(await run(session.new_episode))
        return _json(await run(session.state))

    async def frame(request: web.Request) -> web.StreamResponse:
        try:
            png = await run(session.frame_png)
        except ValueError as exc:
            return _json({"error": str(exc)}, 409)
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "no-store"})

    async def action(request: web.Request) -> web.StreamResponse:
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
        try:
            return _json(await run(session.new_episode))
        except Exception as exc:  # noqa: BLE001 - as above
            return _json({"error": _failure(exc)}, 500)

    async def episodes(request: web.Request) -> web.StreamResponse:
        return _json({"out": str(session.out), "episodes": await run(list_recorded,
                                                                     session.out)})

    async def episode(request: web.Request) -> web.StreamResponse:
        episode_id = request.match_info["episode_id"]
        try:
            return _json(await run(recorded_steps, session.out, episode_id))
        except KeyError:
            return _json({"error": f"no recorded episode {episode_id!r} in {session.out}"}, 404)

    async def recorded_frame(request: web.Request) -> web.StreamResponse:
        episode_id, name = request.match_info["episode_id"], request.match_info["name"]
        # only names the recorder writes: nothing outside frames/<episode>/ is reachable
        if not EPISODE_ID.fullmatch(episode_id) or not FRAME_FILE.fullmatch(name):
            raise web.HTTPNotFound()
        path = session.out / "frames" / episode_id / name
        if not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/replay", page)
    app.router.add_static("/static", STATIC)
    app.router.add_get("/api/state", state)
    app.router.add_get("/api/frame.png", frame)
    app.router.add_post("/api/action", action)
    app.router.add_post("/api/new", new)
    app.router.add_get("/api/episodes", episodes)
    app.router.add_get("/api/episodes/{episode_id}", episode)
    app.router.add_get("/frames/{episode_id}/{name}", recorded_frame)
    return app


class ServerThread:
    """``make_app(session)`` served on ``host:port`` (0: any free port) from a background
    thread with its own event loop (tests, scripts); ``url`` once started."""

    def __init__(self, session: PlaySession, host: str = "127.0.0.1", port: int = 0) -> None:
        self.session, self.host, self.port = session, host, port
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._runner: web.AppRunner | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)

    def start(self) -> ServerThread:
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(timeout=30)
        except BaseException:  # the port is taken: no loop left running
            self.stop()
            raise
        return self

    async def _start(self) -> None:
        self._runner = web.AppRunner(make_app(self.session))
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        port = self._runner.addresses[0][1] if self._runner.addresses else self.port
        self.url = f"http://{self.host}:{port}"

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


def serve(session: PlaySession, host: str = "127.0.0.1", port: int = 8765,
          on_start: Callable[[str], None] | None = None) -> None:
    """Serve until Ctrl-C (the ``phone-gym play`` command)."""
    server = ServerThread(session, host, port).start()
    if on_start is not None:
        on_start(server.url)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
