"""The play server's guard, checked with a real HTTP client (aiohttp's) on 127.0.0.1: no
other page can drive it (Origin, Host, a token, JSON only), half-sent requests are dropped;
and its sessions: one per tab, each with its own episode and recording, bounded, idle ones
closed."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from play_support import SIZE, TASK

from phone_gym.play.cli import make_sessions
from phone_gym.play.sessions import PlaySessions, SessionsFull
from phone_gym.trajectory.store import load_episodes

aiohttp = pytest.importorskip("aiohttp", reason="the play extra (aiohttp) is not installed")

from phone_gym.play.server import ServerThread  # noqa: E402 - needs aiohttp

EVIL = "http://evil.example"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerThread]:
    sessions = make_sessions(task=TASK, out=tmp_path / "play", size=SIZE)
    with ServerThread(sessions) as server:
        yield server
    sessions.close()


async def _call(method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http, http.request(method, url, **kwargs) as r:
        body = await r.read()
        is_json = r.content_type == "application/json"
        return r.status, (await r.json() if is_json else body)


def call(method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
    return asyncio.run(_call(method, url, **kwargs))


def open_tab(server: ServerThread) -> tuple[str, dict[str, Any]]:
    status, opened = call("POST", f"{server.url}/api/session", json={},
                          headers={"Authorization": f"Bearer {server.token}"})
    assert status == 200, opened
    return opened["session"], opened["state"]


def test_cross_origin_posts_and_websockets_are_refused(served: ServerThread) -> None:
    url, token = served.url, served.token
    tab, state = open_tab(served)
    auth = {"Authorization": f"Bearer {token}", "X-Play-Session": tab}
    # a page elsewhere posts a form-like text/plain body (no preflight in a browser)
    body = '{"action": "finish", "status": "success"}'
    status, refused = call("POST", f"{url}/api/action?token={token}", data=body,
                           headers={"Origin": EVIL, "Content-Type": "text/plain",
                                    "X-Play-Session": tab})
    assert status == 403 and "cross-origin" in refused["error"] and EVIL in refused["error"]
    for origin in (None, f"http://127.0.0.1:{served.port}"):  # the same body from no page
        headers = {**auth, "Content-Type": "text/plain", **({"Origin": origin} if origin else {})}
        status, refused = call("POST", f"{url}/api/action", data=body, headers=headers)
        assert status == 415 and "application/json" in refused["error"]
    status, now = call("GET", f"{url}/api/state", headers=auth)
    assert now["step"] == 0 and not now["done"]  # nothing forged got in
    assert not (served.sessions.out / "steps.jsonl").exists()  # nor any recording

    async def websocket(origin: str) -> int:
        async with aiohttp.ClientSession() as http:
            try:
                async with http.ws_connect(f"{url}/api/state?token={token}", origin=origin):
                    return 101
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    assert asyncio.run(websocket(EVIL)) == 403
    assert asyncio.run(websocket(f"http://localhost:{served.port}")) != 403  # no such route
    # Host: a rebinding name is refused even with the token and no Origin
    status, refused = call("GET", f"{url}/api/episodes", headers={
        "Authorization": f"Bearer {token}", "Host": f"evil.example:{served.port}"})
    assert status == 403 and "DNS rebinding" in refused["error"]
    for host in (f"localhost:{served.port}", f"127.0.0.1:{served.port}", "[::1]"):
        assert call("GET", f"{url}/api/episodes", headers={**auth, "Host": host})[0] == 200
    status, _ = call("POST", f"{url}/api/action", json={"action": "press", "button": "home"},
                     headers={**auth, "Origin": f"http://localhost:{served.port}"})
    assert status == 200


def test_the_token_is_required_and_a_page_load_sets_its_cookie(served: ServerThread) -> None:
    url, token = served.url, served.token
    assert token and served.page_url() == f"{url}/?token={token}"
    for path in ("/", "/replay", "/static/play.js", "/api/episodes", "/frames/x/000.png"):
        status, refused = call("GET", url + path)
        assert status == 401 and "token" in refused["error"], path
    assert call("GET", f"{url}/api/episodes?token=nope")[0] == 401
    assert call("GET", f"{url}/api/episodes", headers={"Authorization": "Bearer nope"})[0] == 401
    assert call("POST", f"{url}/api/session", json={})[0] == 401

    async def first_load() -> tuple[str, int, int]:
        # unsafe=True: aiohttp's jar keeps cookies of IP addresses only when told to
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.get(served.page_url()) as r:
                cookie = r.headers["Set-Cookie"]
            async with http.get(f"{url}/api/episodes") as r:  # the cookie alone now
                with_cookie = r.status
        async with aiohttp.ClientSession() as http, http.get(f"{url}/api/episodes") as r:
            return cookie, with_cookie, r.status

    cookie, with_cookie, without = asyncio.run(first_load())
    assert cookie.startswith(f"phone_gym_token_{served.port}={token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert (with_cookie, without) == (200, 401)


def test_allow_origin_widens_and_no_token_keeps_the_origin_check(tmp_path: Path) -> None:
    sessions = make_sessions(task=TASK, out=tmp_path, size=SIZE)
    with ServerThread(sessions, require_token=False,
                      allow_origins=["http://myhost.test:9999"]) as server:
        assert server.token is None and server.page_url() == f"{server.url}/"
        assert call("GET", f"{server.url}/api/episodes")[0] == 200
        headers = {"Origin": "http://myhost.test:9999", "Host": "myhost.test:9999"}
        assert call("GET", f"{server.url}/api/episodes", headers=headers)[0] == 200
        assert call("GET", f"{server.url}/api/episodes", headers={"Origin": EVIL})[0] == 403
        assert call("GET", f"{server.url}/api/episodes",
                    headers={"Origin": "http://myhost.test:9998"})[0] == 403
        assert call("GET", f"{server.url}/api/episodes", headers={"Origin": "null"})[0] == 403
    sessions.close()
    with pytest.raises(ValueError, match="no path"):
        ServerThread(sessions, allow_origins=["http://myhost.test/x"])


def _until_closed(sock: socket.socket, limit_s: float = 10.0) -> tuple[bytes, float]:
    """What the server sent before it closed ``sock``, and how long that took."""
    start, data = time.monotonic(), b""
    sock.settimeout(limit_s)
    while chunk := sock.recv(4096):
        data += chunk
    return data, time.monotonic() - start


def test_half_sent_requests_are_closed(tmp_path: Path) -> None:
    sessions = make_sessions(task=TASK, out=tmp_path, size=SIZE)
    with ServerThread(sessions, request_timeout_s=0.5) as server:
        token = server.token or ""
        with socket.create_connection(("127.0.0.1", server.port)) as sock:  # headers stall
            sock.sendall(b"GET /api/episodes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthoriz")
            data, took = _until_closed(sock)
        assert data == b"" and took < 5
        with socket.create_connection(("127.0.0.1", server.port)) as sock:  # the body stalls
            sock.sendall(b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         b"application/json\r\nAuthorization: Bearer " + token.encode()
                         + b"\r\nContent-Length: 50\r\n\r\n{")
            data, took = _until_closed(sock)
        assert data.startswith(b"HTTP/1.1 408") and b"did not arrive in time" in data
        assert len(sessions) == 0  # nothing was opened
        open_tab(server)  # whole requests still work
    sessions.close()


class _Env:
    """A tiny env that counts its closes (sessions hand their envs back)."""

    closed = 0

    def reset(self, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        return {"instruction": "x", "screenshot": np.zeros((4, 2, 3), np.uint8)}, {}

    def step(self, action: Any) -> Any:
        return self.reset()[0], 0.0, action.type == "finish", False, {}

    def close(self) -> None:
        _Env.closed += 1


def test_sessions_are_bounded_and_idle_ones_close(tmp_path: Path) -> None:
    now = [0.0]
    _Env.closed = 0
    sessions = PlaySessions(lambda task: _Env(), tmp_path, max_sessions=2, idle_timeout_s=60,
                            clock=lambda: now[0])
    warm = sessions.warm()
    first, taken = sessions.open()
    assert taken is warm and warm.seed == 0  # the command's warmed session goes to a tab
    second, _ = sessions.open()
    with pytest.raises(SessionsFull, match="all 2 play session"):
        sessions.open()
    now[0] = 50.0
    sessions.get(first)  # used: its idle time starts again
    now[0] = 70.0
    assert sessions.reap() == [second] and _Env.closed == 1
    with pytest.raises(KeyError):
        sessions.get(second)
    third, session = sessions.open()
    assert session.seed == 2 and len(sessions) == 2
    now[0] = 80.0
    sessions.get(third)
    with pytest.raises(SessionsFull, match="take over"):
        sessions.open()
    fourth, _ = sessions.open(take_over=True)  # asked for: the one unused the longest goes
    assert _Env.closed == 2 and len(sessions) == 2
    with pytest.raises(KeyError):
        sessions.get(first)
    assert sessions.get(third) is session and sessions.get(fourth).seed == 3
    sessions.close()
    assert _Env.closed == 4 and len(sessions) == 0
    with pytest.raises(ValueError, match="accepted: a positive int"):
        PlaySessions(lambda task: _Env(), tmp_path, max_sessions=0)
    with pytest.raises(ValueError, match="seconds > 0"):
        PlaySessions(lambda task: _Env(), tmp_path, idle_timeout_s=-1)


def test_the_server_closes_idle_sessions_by_itself(tmp_path: Path) -> None:
    _Env.closed = 0
    sessions = PlaySessions(lambda task: _Env(), tmp_path, idle_timeout_s=0.3)
    with ServerThread(sessions) as server:
        tab, _ = open_tab(server)
        deadline = time.monotonic() + 10
        while len(sessions) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(sessions) == 0 and _Env.closed == 1
        status, gone = call("GET", f"{server.url}/api/state", headers={
            "Authorization": f"Bearer {server.token}", "X-Play-Session": tab})
        assert status == 410 and gone["code"] == "no_session" and "0.3 s" in gone["error"]
        status, full = call("POST", f"{server.url}/api/session", json={}, headers={
            "Authorization": f"Bearer {server.token}"})
        assert status == 200
        status, bad = call("POST", f"{server.url}/api/session", json={"take_over": "yes"},
                           headers={"Authorization": f"Bearer {server.token}"})
        assert status == 400 and "take_over" in bad["error"]
    sessions.close()


def test_two_tabs_interleaved_each_record_their_own_steps(served: ServerThread) -> None:
    url, token = served.url, served.token
    tabs = [open_tab(served) for _ in range(2)]
    (a, a_state), (b, b_state) = tabs
    assert a != b and (a_state["seed"], b_state["seed"]) == (0, 1)

    def act(tab: str, action: dict[str, Any], path: str = "/api/action") -> dict[str, Any]:
        status, state = call("POST", url + path, json=action, headers={
            "Authorization": f"Bearer {token}", "X-Play-Session": tab})
        assert status == 200, state
        return state

    act(a, {"action": "press", "button": "home"})
    act(b, {"action": "press", "button": "back"})
    dropped = act(b, {}, "/api/new")  # b's unfinished episode goes; a's stays
    assert dropped["seed"] == 2 and dropped["step"] == 0
    assert act(a, {"action": "press", "button": "recents"})["step"] == 2

    async def together() -> list[Any]:  # both tabs at once: each step lands in its tab
        async with aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as http:
            async def post(tab: str, button: str) -> Any:
                async with http.post(f"{url}/api/action", headers={"X-Play-Session": tab},
                                     json={"action": "press", "button": button}) as r:
                    return await r.json()
            return await asyncio.gather(post(a, "back"), post(b, "enter"))

    assert [s["step"] for s in asyncio.run(together())] == [3, 1]
    ended_b = act(b, {"action": "finish", "status": "infeasible"})
    ended_a = act(a, {"action": "finish", "status": "success"})
    actions = {e.episode_id: [s.action for s in e.steps]
               for e in load_episodes(served.sessions.out, frames=False)}
    assert actions == {
        ended_a["episode_id"]: ['press(button="home")', 'press(button="recents")',
                                'press(button="back")', 'finish(status="success")'],
        ended_b["episode_id"]: ['press(button="enter")', 'finish(status="infeasible")']}
    for tab in (a, b):  # the frame image names its tab in the query (an img sends no header)
        status, png = call("GET", f"{url}/api/frame.png?session={tab}&token={token}")
        assert status == 200 and png.startswith(b"\x89PNG")


def test_a_tampered_recording_is_one_clear_error_not_a_crash(served: ServerThread) -> None:
    out = served.sessions.out
    out.mkdir(parents=True, exist_ok=True)
    (out / "steps.jsonl").write_text('{"format": "phone-gym-trajectory", "version": 2}\n'
                                     "{not json\n")
    auth = {"Authorization": f"Bearer {served.token}"}
    for path in ("/api/episodes", "/api/episodes/ep1"):
        status, body = call("GET", f"{served.url}{path}", headers=auth)
        assert status == 422, body
        assert "steps.jsonl:2:" in body["error"] and "fix or move" in body["error"]
