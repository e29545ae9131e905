"""The OpenEnv server and client (phone_gym.integrations.openenv) on 127.0.0.1: concurrent
sessions, equality with the in-process env, RealPhone-v0 over the virtual adb device, and
bad actions as action errors; the guard (Origin, Host, token, JSON only, checked with real
clients: websockets and httpx), idle sessions closed, the HTTP calls inside the session
limit, half-sent requests dropped."""

from __future__ import annotations

import json
import socket
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("openenv.core", reason='needs the openenv extra: pip install -e ".[openenv]"')
uvicorn = pytest.importorskip("uvicorn", reason='needs the openenv extra')
from websockets.exceptions import InvalidStatus  # noqa: E402

from phone_gym.actions import format_action  # noqa: E402
from phone_gym.envs import register_envs  # noqa: E402
from phone_gym.envs.contract import END_KEYS, PRIVILEGED_KEYS, STEP_KEYS  # noqa: E402
from phone_gym.integrations.openenv import (  # noqa: E402
    FRAME_FORMATS,
    PhoneEnvAction,
    PhoneEnvClient,
    changed_runs,
    create_server_app,
    decode_frame,
    decode_png,
    encode_frame,
    encode_png,
    server_config,
)
from phone_gym.integrations.openenv_socket import BlockingWebSocket  # noqa: E402

register_envs()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The app under uvicorn, configured as ``serve`` does, in a thread on a free port of
    127.0.0.1: ``base`` is its address, ``url`` the one with its token (what it prints)."""

    def __init__(self, app: Any, request_timeout_s: float = 30.0) -> None:
        self.port = free_port()
        self.token = app.state.token
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = f"{self.base}/?token={self.token}" if self.token else self.base
        self.auth = {"Authorization": f"Bearer {self.token}"}
        config = server_config(app, request_timeout_s, host="127.0.0.1", port=self.port)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline, "server did not start"
            assert self.thread.is_alive(), "server thread died"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="module")
def world() -> Iterator[Server]:
    with Server(create_server_app("PhoneWorld-v0", max_sessions=8)) as srv:
        yield srv


def in_process(task: str, seed: int, cut: int | None) -> list[tuple[Any, ...]]:
    """The episode in-process: (action text, obs, reward, terminated, truncated, info) per
    step, the reset first. Oracle actions; with ``cut``, ``finish()`` after ``cut`` steps."""
    env = gym.make("PhoneWorld-v0")
    obs, info = env.reset(seed=seed, options={"task": task})
    steps: list[tuple[Any, ...]] = [(None, obs, 0.0, False, False, info)]
    done = False
    while not done:
        if cut is not None and len(steps) > cut:
            action = "finish()"
        else:
            action = format_action(env.unwrapped.oracle_action())  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, info = env.step(action)
        steps.append((action, obs, reward, terminated, truncated, info))
        done = terminated or truncated
    env.close()
    return steps


def plain_info(info: dict[str, Any]) -> dict[str, Any]:
    """The in-process info as it crosses the wire (the UI elements as a list of dicts)."""
    return {k: list(v) if k == "ui_elements" else v for k, v in info.items()}


def test_png_round_trip_is_lossless() -> None:
    image = np.random.default_rng(0).integers(0, 256, (37, 20, 3), dtype=np.uint8)
    assert np.array_equal(decode_png(encode_png(image)), image)


def test_frame_round_trips() -> None:
    """Raw and PNG frames come back as they went; JPEG and WebP close to it; a frame whose
    size is not the one its observation states is refused."""
    image = np.random.default_rng(0).integers(0, 256, (37, 20, 3), dtype=np.uint8)
    smooth = np.repeat(np.linspace(0, 255, 40, dtype=np.uint8)[:, None, None], 3, 2)
    smooth = np.repeat(smooth, 24, 1)
    for fmt in FRAME_FORMATS:
        meta = {"format": fmt, "width": 20, "height": 37}
        got = decode_frame(encode_frame(image, fmt), meta)
        assert got.shape == image.shape and got.dtype == np.uint8
        if fmt in ("raw", "png"):
            assert np.array_equal(got, image)
        back = decode_frame(encode_frame(smooth, fmt), {**meta, "width": 24, "height": 40})
        assert np.abs(back.astype(int) - smooth).max() <= (0 if fmt in ("raw", "png") else 8)
    with pytest.raises(ValueError, match="has 2220 bytes, not 2217"):
        decode_frame(encode_frame(image, "raw")[:-3], {"format": "raw", "width": 20,
                                                       "height": 37})
    with pytest.raises(ValueError, match="not 21 x 37"):
        decode_frame(encode_frame(image, "png"), {"format": "png", "width": 21, "height": 37})
    with pytest.raises(ValueError, match="accepted: raw, png, jpeg, webp"):
        encode_frame(image, "gif")


def test_changed_runs() -> None:
    """The changed rows as runs, near ones joined; a width whose rows are not whole 32-bit
    words is compared byte by byte, with the same answer."""
    for width in (4, 5):
        before = np.zeros((40, width, 3), np.uint8)
        after = before.copy()
        assert changed_runs(before, after) == []
        after[2, 1, 0] = 1
        after[4, width - 1, 2] = 9
        after[30:33, 0, 1] = 7
        assert changed_runs(before, after) == [(2, 3), (30, 3)]
        assert changed_runs(before, after, gap=30) == [(2, 31)]
        assert changed_runs(before, after, gap=1) == [(2, 1), (4, 1), (30, 3)]
        assert changed_runs(None, after) == [(0, 40)]
        assert changed_runs(before[:5], after) == [(0, 40)]


@pytest.mark.parametrize("fmt", ["raw", "png", "webp", "shm"])
def test_binary_frames_over_the_session(world: Server, fmt: str) -> None:
    """A client that asks for binary frames gets the in-process screenshots (exactly, for
    raw, PNG and shm) as binary WebSocket messages (shm: in shared memory); the JSON then
    holds no base64 PNG."""
    expected = in_process("ContactsCreate", 3, 2)
    with PhoneEnvClient(world.url, frame_format=fmt) as client:
        obs, _ = client.reset(task="ContactsCreate", seed=3)
        for (action, e_obs, *_rest) in expected[:3]:
            if action is not None:
                obs, *_ = client.step(action)
            assert obs["screenshot"].shape == e_obs["screenshot"].shape
            if fmt != "webp":
                assert np.array_equal(obs["screenshot"], e_obs["screenshot"]), action
            else:
                diff = np.abs(obs["screenshot"].astype(int) - e_obs["screenshot"])
                assert diff.mean() < 4, action
    with pytest.raises(ValueError, match="accepted: raw, png, jpeg, webp"):
        PhoneEnvClient(world.url, frame_format="bmp")


@pytest.mark.parametrize("fmt", ["raw", "shm"])
def test_a_raw_frame_episode_equals_in_process(world: Server, fmt: str) -> None:
    """With raw frames (over the socket, or shared on this machine) every observation,
    reward, flag and info is the in-process one, although the UI elements travel as rows,
    as ``{"same": true}`` when unchanged (the bad click changes nothing) and as an edit of
    the rows before (the positions of those kept, the others' rows); a caller's
    edits to one step's elements do not leak. A shared frame's file is gone once the
    client has it open."""
    env = gym.make("PhoneWorld-v0")
    obs, info = env.reset(seed=3, options={"task": "ContactsCreate"})
    expected: list[tuple[Any, ...]] = [(None, obs, 0.0, False, False, info)]
    done, k = False, 0
    while not done:
        k += 1
        action = "click(x=5000, y=1)" if k == 2 else format_action(
            env.unwrapped.oracle_action())  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, info = env.step(action)
        expected.append((action, obs, reward, terminated, truncated, info))
        done = terminated or truncated
    env.close()
    assert expected[2][5]["action_error"] and expected[-1][5]["success"] is True
    sent: list[Any] = []
    frames: list[Any] = []
    with PhoneEnvClient(world.url, frame_format=fmt) as client:
        receive = client._wire._receive

        async def recording() -> dict[str, Any]:
            message = await receive()
            sent.append(message["data"]["observation"]["info"].get("ui_elements"))
            frames.append(message["data"]["observation"]["frame"])
            return message

        client._wire._receive = recording  # type: ignore[method-assign]
        obs, info = client.reset(task="ContactsCreate", seed=3)
        got: list[tuple[Any, ...]] = [(None, obs, 0.0, False, False, info)]
        for action, *_ in expected[1:]:
            got.append((action, *client.step(action)))
        for (action, e_obs, *e_rest), (_, g_obs, *g_rest) in zip(expected, got, strict=True):
            assert np.array_equal(g_obs["screenshot"], e_obs["screenshot"]), action
            assert g_obs["instruction"] == e_obs["instruction"]
            assert g_rest[:3] == e_rest[:3], action
            assert g_rest[3] == plain_info(e_rest[3]), action
        got[1][5]["ui_elements"][0]["text"] = "edited"
        assert got[2][5]["ui_elements"] == plain_info(expected[2][5])["ui_elements"]
        first = len(frames)  # a second episode in the same session starts from a whole frame
        again = in_process("ContactsCreate", 4, 1)
        obs, info = client.reset(task="ContactsCreate", seed=4)
        assert np.array_equal(obs["screenshot"], again[0][1]["screenshot"])
        assert info == plain_info(again[0][5]) and "rows" in sent[first]
        obs, *_, info = client.step(again[1][0])
        assert np.array_equal(obs["screenshot"], again[1][1]["screenshot"])
        assert info == plain_info(again[1][5])
    assert {f["format"] for f in frames} == {fmt}
    if fmt == "shm":
        assert len({f["path"] for f in frames}) == 1 and not Path(frames[0]["path"]).exists()
    else:
        assert "runs" not in frames[0] and all("runs" in f for f in frames[1:first])
        assert "runs" not in frames[first] and "runs" in frames[first + 1]
    assert sent[2] == {"same": True} and "rows" in sent[0]
    assert all(isinstance(ui, dict) and len({"same", "rows", "edit"} & ui.keys()) == 1
               for ui in sent)
    edits = [ui["edit"] for ui in sent if "edit" in ui]  # rows kept in place, others sent
    assert edits and all(any(isinstance(x, int) for x in e) for e in edits)
    assert any(isinstance(x, list) for e in edits for x in e)


@pytest.mark.parametrize("fmt", [None, "raw"])
@pytest.mark.parametrize("caller", [True, False])
def test_the_callers_thread_does_the_io(world: Server, fmt: str | None, caller: bool) -> None:
    """On a loopback server the client's calls run in the caller's thread (a
    ``BlockingWebSocket``, with no event loop thread); the other transport, OpenEnv's
    ``SyncEnvClient`` loop thread (any other server's), gives the same episode, with and
    without per-message deflate."""
    expected = in_process("ContactsCreate", 3, 2)
    with PhoneEnvClient(world.url, frame_format=fmt) as client:
        assert client._wire.blocking
        client._wire.blocking = caller
        obs, info = client.reset(task="ContactsCreate", seed=3)
        got = [(None, obs, 0.0, False, False, info)]
        for action, *_ in expected[1:]:
            got.append((action, *client.step(action)))
        names = {t.name for t in threading.enumerate()}
        assert ("openenv-sync-client-loop" in names) is not caller
        assert isinstance(client._wire._ws, BlockingWebSocket) is caller
        for (action, e_obs, *e_rest), (_, g_obs, *g_rest) in zip(expected, got, strict=True):
            assert np.array_equal(g_obs["screenshot"], e_obs["screenshot"]), action
            assert g_rest == [*e_rest[:3], plain_info(e_rest[3])], action
    assert client._wire._ws is None


def test_a_client_that_thinks_between_steps_keeps_its_session() -> None:
    """The server's keepalive pings wait for their pong as long as a session may idle: a
    client doing its I/O in the caller's thread answers them only at its next step."""
    app = create_server_app("PhoneWorld-v0", max_sessions=1, idle_timeout_s=2.0)
    assert server_config(app).ws_ping_timeout == 2.0
    assert server_config(create_server_app(idle_timeout_s=None)).ws_ping_timeout is None
    server = Server(app)
    server.server.config.ws_ping_interval = 0.05
    with server as srv, PhoneEnvClient(srv.url) as client:
        client.reset(task="ContactsCreate", seed=3)
        time.sleep(0.3)  # pings unanswered, several ping intervals long
        assert client.step("click(x=5000, y=1)")[4]["action_error"]


def test_a_blocking_websocket_times_out_and_reports_a_refusal(world: Server) -> None:
    """``BlockingWebSocket.recv`` waits at most its timeout; a refused handshake is
    websockets' ``InvalidStatus`` with the server's answer, which the client names."""
    ws_url = world.base.replace("http", "ws") + "/ws"
    ws = BlockingWebSocket(ws_url, open_timeout=10, max_size=None, headers=world.auth)
    try:
        start = time.monotonic()
        with pytest.raises(TimeoutError):
            ws.recv(timeout=0.2)
        assert 0.15 < time.monotonic() - start < 5
        ws.send('{"type": "state"}')
        assert '"env_id"' in str(ws.recv(timeout=10))
        ws.send('{"type": "close"}')  # OpenEnv's server then closes, which close() awaits
    finally:
        ws.close()
    with pytest.raises(InvalidStatus) as refused:
        BlockingWebSocket(ws_url, open_timeout=10, max_size=None)
    assert refused.value.response.status_code == 401
    with pytest.raises(ConnectionError, match="refused the session .HTTP 401"):
        PhoneEnvClient(world.base).reset()


@pytest.mark.parametrize("fmt", [None, "raw", "shm"])
def test_served_observations_dump_as_pydantic_would(fmt: str | None) -> None:
    """The server's observations skip pydantic's validation and its walk for OpenEnv's
    ``serialize_observation``: the dump is the one of the same values validated, the JSON
    OpenEnv sends the same, and the state is made when asked."""
    from openenv.core.env_server.serialization import serialize_observation
    from openenv.core.env_server.types import WSObservationResponse

    from phone_gym.integrations.openenv import PhoneEnvironment, PhoneEnvObservation

    env = PhoneEnvironment()
    try:
        served = [env.reset(seed=3, task="ContactsCreate", frame_format=fmt)]
        for action in ("click(x=5000, y=1)", *(a for a, *_ in in_process(
                "ContactsCreate", 3, 2)[1:])):
            served.append(env.step(PhoneEnvAction(text=action)))
        assert env.state.step_count == len(served) - 1 and env.state.ended
        for obs in served:
            checked = PhoneEnvObservation.model_validate(dict(obs.__dict__))
            assert serialize_observation(obs) == serialize_observation(checked)
            assert (WSObservationResponse(data=serialize_observation(obs)).model_dump_json()
                    == WSObservationResponse(data=serialize_observation(checked))
                    .model_dump_json())
            assert obs.model_dump() == checked.model_dump()
        assert served[1].action_error and served[0].action_error is None
    finally:
        env.close()


def test_ui_rows_from_the_wire() -> None:
    """The client rebuilds the elements from rows (tuples again, as in-process) when they
    are first read, reuses the last on ``same``, edits them on ``edit`` (kept rows by
    position), refuses ``same`` or ``edit`` before any rows and an edit naming a row never
    sent, and reads a server whose fields differ by name."""
    from phone_gym.envs.infos import UI_FIELDS, UIElementList

    client = PhoneEnvClient("http://127.0.0.1:9", frame_format="raw")  # never connects
    with pytest.raises(RuntimeError, match="unchanged or edited before"):
        client._ui_elements({"same": True})
    row: list[Any] = [f"v{i}" for i in range(len(UI_FIELDS))]
    row[1] = [1, 2, 3, 4]
    got = client._ui_elements({"fields": list(UI_FIELDS), "rows": [row]})
    assert isinstance(got, UIElementList) and got.rows()[0][1] == (1, 2, 3, 4)
    assert got[0] == dict(zip(UI_FIELDS, row, strict=True))
    again = client._ui_elements({"same": True})
    assert again == got and again is not got
    other = client._ui_elements({"fields": ["text", "bounds"], "rows": [["OK", [0, 0, 9, 9]]]})
    assert other == [{"text": "OK", "bounds": [0, 0, 9, 9]}]
    edited = client._ui_elements({"edit": [["Cancel", [0, 9, 9, 19]], 0]})  # kept: row 0
    assert edited == [{"text": "Cancel", "bounds": [0, 9, 9, 19]}, other[0]]
    with pytest.raises(RuntimeError, match="names a row it did not send"):
        client._ui_elements({"edit": [5]})
    fresh = PhoneEnvClient("http://127.0.0.1:9", frame_format="raw")
    with pytest.raises(RuntimeError, match="before it sent any"):
        fresh._ui_elements({"edit": [0]})
    got = client._ui_elements({"fields": list(UI_FIELDS), "rows": [row]})
    assert got.rows()[0][1] == (1, 2, 3, 4)  # read: the kept row is a tuple already
    moved = client._ui_elements({"edit": [0, [*row[:3], "new", *row[4:]]]})
    assert moved.rows()[0] is got.rows()[0] and moved[1]["text"] == "new"

    class Unread(list):  # type: ignore[type-arg]
        def __iter__(self) -> Any:
            raise AssertionError("read")

    lazy = client._ui_elements({"fields": list(UI_FIELDS), "rows": Unread([row])})
    later = client._ui_elements({"same": True})  # neither is read until asked, as in-process
    with pytest.raises(AssertionError, match="read"):
        len(later)
    assert isinstance(lazy, UIElementList)


def test_a_shared_frame_is_mapped_only_where_it_is(tmp_path: Path) -> None:
    """The client maps only a file named as the server names them, and says what to do
    when it is not on the server's machine."""
    from phone_gym.integrations.openenv import SHM_PREFIX, SharedFrame, open_shared

    frame = SharedFrame((3, 2, 3))
    try:
        frame.pixels[:] = 7
        assert np.array_equal(open_shared(frame.path, 2, 3), np.full((3, 2, 3), 7, np.uint8))
        with pytest.raises(RuntimeError, match="is not 20 x 30"):
            open_shared(frame.path, 20, 30)
        frame.unlink()
        with pytest.raises(RuntimeError, match="use frame_format='raw'"):
            open_shared(frame.path, 2, 3)
    finally:
        frame.close()
    other = tmp_path / "secrets"
    other.write_bytes(bytes(18))
    with pytest.raises(RuntimeError, match=f"accepted: a {SHM_PREFIX}"):
        open_shared(str(other), 2, 3)


def test_an_http_reset_refuses_binary_frames(world: Server) -> None:
    import httpx

    reply = httpx.post(f"{world.base}/reset", headers=world.auth,
                       json={"task": "ContactsCreate", "frame_format": "raw"})
    assert reply.status_code == 400 and "WebSocket session" in reply.json()["detail"]


@pytest.mark.parametrize(("task", "seed"), [("ContactsCreate", 3), ("BikePayParking", 0)])
def test_episode_over_the_client_equals_in_process(world: Server, task: str, seed: int) -> None:
    """BikePayParking's instruction, screens and typed plate hold CJK and the yuan sign: text
    crosses the wire unchanged (issue 23)."""
    expected = in_process(task, seed, None)
    assert expected[-1][5]["success"] is True  # the oracle solves it: a real check below
    if task == "BikePayParking":
        assert not expected[0][1]["instruction"].isascii()
        assert any(not str(a).isascii() for a, *_ in expected[1:])
    with PhoneEnvClient(world.url) as client:
        obs, info = client.reset(task=task, seed=seed)
        assert np.array_equal(obs["screenshot"], expected[0][1]["screenshot"])
        assert obs["instruction"] == expected[0][1]["instruction"]
        assert info == plain_info(expected[0][5])
        for action, e_obs, e_reward, e_term, e_trunc, e_info in expected[1:]:
            obs, reward, terminated, truncated, info = client.step(action)
            assert obs["screenshot"].dtype == np.uint8
            assert np.array_equal(obs["screenshot"], e_obs["screenshot"]), action
            assert (reward, terminated, truncated) == (e_reward, e_term, e_trunc), action
            assert info == plain_info(e_info), action
        assert info["success"] is True and reward == 1.0
        assert not set(PRIVILEGED_KEYS) & set(info)


def test_eight_concurrent_episodes(world: Server) -> None:
    tasks = ["ContactsCreate", "SettingsWifiOff", "ClockAddAlarm", "SettingsBluetoothOn",
             "ContactsDelete", "SettingsWifiOff", "ClockAddAlarm", "SettingsBluetoothOn"]
    # (task, seed, cut): a third finish early and fail; the rest run the oracle
    plans = [(task, 10 + i, 1 if i % 3 == 2 else None) for i, task in enumerate(tasks)]
    expected = [in_process(*plan) for plan in plans]
    assert {e[-1][5]["success"] for e in expected} == {True, False}
    opened = threading.Barrier(len(plans), timeout=60)
    results: list[list[tuple[Any, ...]] | BaseException] = [[] for _ in plans]

    def run(i: int) -> None:
        try:
            with PhoneEnvClient(world.url) as client:
                task, seed, _ = plans[i]
                obs, info = client.reset(task=task, seed=seed)
                out: list[tuple[Any, ...]] = [(info["step"], obs["instruction"])]
                opened.wait()  # all eight sessions are open at once
                for action, *_ in expected[i][1:]:
                    obs, reward, terminated, truncated, info = client.step(action)
                    out.append((info["step"], reward, terminated, truncated,
                                info.get("success"), info.get("task_id")))
                results[i] = out
        except BaseException as exc:  # noqa: B036 - reported by the main thread
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(plans))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    for i, (plan, got, want) in enumerate(zip(plans, results, expected, strict=True)):
        assert not isinstance(got, BaseException), f"episode {i} {plan}: {got!r}"
        assert got[0] == (0, want[0][1]["instruction"])
        steps = [(w[5]["step"], w[2], w[3], w[4], w[5].get("success"), w[5].get("task_id"))
                 for w in want[1:]]
        assert got[1:] == steps, plan
        assert got[-1][4] is want[-1][5]["success"] and got[-1][5] == plan[0]


def test_a_ninth_session_is_refused_while_eight_are_open(world: Server) -> None:
    clients = [PhoneEnvClient(world.url) for _ in range(8)]
    try:
        for i, client in enumerate(clients):
            client.reset(task="SettingsWifiOff", seed=i)
        extra = PhoneEnvClient(world.url)
        with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
            extra.reset(task="SettingsWifiOff", seed=0)
        extra.close()
    finally:
        for client in clients:
            client.close()
    time.sleep(0.2)  # the server frees the sessions once their sockets close
    with PhoneEnvClient(world.url) as client:
        assert client.reset(task="SettingsWifiOff", seed=0)[1]["step"] == 0


def test_bad_actions_are_action_errors_not_crashes(world: Server) -> None:
    with PhoneEnvClient(world.url) as client:
        obs, info = client.reset(task="ContactsCreate", seed=1)
        first = obs["screenshot"]
        bad: list[Any] = ["clik(x=1)", "", "__import__('os').system('true')",
                          {"action": "click", "x": 5000, "y": 1}, {"action": "fly"},
                          {"action": "click", "x": "left", "y": 3}, {"type": "click"},
                          PhoneEnvAction(action="click", x=1200, y=3),
                          PhoneEnvAction(action="type", value="no field to type in"),
                          PhoneEnvAction(action="warp", app="Settings"), PhoneEnvAction()]
        for n, action in enumerate(bad, start=1):
            obs, reward, terminated, truncated, info = client.step(action)
            assert info["action_error"], action
            assert (reward, terminated, truncated) == (0.0, False, False)
            assert info["step"] == n and np.array_equal(obs["screenshot"], first)
        obs, reward, terminated, _, info = client.step(PhoneEnvAction(action="open_app",
                                                                      app="Contacts"))
        assert info["action_error"] is None and not np.array_equal(obs["screenshot"], first)
        assert client.state().step_count == len(bad) + 1
        _, reward, terminated, _, info = client.step("finish()")
        assert terminated and info["success"] is False and reward == 0.0
        with pytest.raises(RuntimeError, match="reset"):  # an ended episode: server's error
            client.step("finish()")
        assert client.reset(task="ContactsCreate", seed=1)[1]["step"] == 0  # still serving
    with pytest.raises(ValueError, match="not several"):
        PhoneEnvAction(text="finish()", action="finish")
    with pytest.raises(ValueError, match="accepted"):
        PhoneEnvClient("127.0.0.1:80")
    with pytest.raises(ValueError, match="accepted"):
        create_server_app("Pong-v5")
    with pytest.raises(ValueError, match="privileged_info"):
        create_server_app("PhoneWorld-v0", privileged_info=True)


def test_info_holds_only_the_agent_facing_keys(world: Server) -> None:
    with PhoneEnvClient(world.url) as client:
        _, info = client.reset(task="ContactsCreate", seed=0)
        assert set(info) == set(STEP_KEYS)
        _, _, _, _, info = client.step("finish()")
        assert set(info) == set(STEP_KEYS) | set(END_KEYS)


def test_other_dict_forms_match_in_process(world: Server) -> None:
    env = gym.make("PhoneWorld-v0")
    env.reset(seed=2, options={"task": "SettingsWifiOff"})
    actions: list[Any] = [{"action": "open_app", "app": "Settings"},
                          {"action": "click", "coordinate": [500, 300]},
                          {"type": "press", "button": "back"},
                          {"action": "type", "text": "wifi"},
                          PhoneEnvAction(action="click", x=500, y=400).to_env()]
    with PhoneEnvClient(world.url) as client:
        client.reset(task="SettingsWifiOff", seed=2)
        for action in actions:
            e_obs, e_reward, e_term, e_trunc, e_info = env.step(action)
            obs, reward, terminated, truncated, info = client.step(action)
            assert info == plain_info(e_info), action
            assert np.array_equal(obs["screenshot"], e_obs["screenshot"]), action
            assert (reward, terminated, truncated) == (e_reward, e_term, e_trunc)
    env.close()


def test_http_endpoints_are_openenvs(world: Server) -> None:
    import json
    from urllib.request import Request, urlopen

    with urlopen(Request(f"{world.base}/health", headers=world.auth), timeout=30) as r:
        assert json.load(r)["status"] == "healthy"
    with urlopen(f"{world.base}/schema?token={world.token}", timeout=30) as r:
        schema = json.load(r)
    assert {"text", "action", "x", "y"} <= set(schema["action"]["properties"])
    assert "screenshot_png" in schema["observation"]["properties"]
    body = json.dumps({"seed": 0, "task": "SettingsWifiOff"}).encode()
    request = Request(f"{world.base}/reset", data=body,
                      headers={"Content-Type": "application/json", **world.auth})
    with urlopen(request, timeout=60) as r:
        reset = json.load(r)
    assert reset["observation"]["instruction"] == "Turn off Wi-Fi."
    assert decode_png(reset["observation"]["screenshot_png"]).shape == (1200, 540, 3)
    assert reset["done"] is False


# --- RealPhone-v0 over the virtual adb device ------------------------------------------
@pytest.fixture
def fake_adb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """As tests/envs/test_real_phone.py: no adb binary runs (the script leaves a mark)."""
    mark = tmp_path / "adb-spawned"
    script = tmp_path / "adb"
    script.write_text(f"#!/bin/sh\ntouch {mark}\nexit 1\n")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("ADBUTILS_ADB_PATH", str(script))
    return mark


def test_real_phone_served_against_the_virtual_device(fake_adb: Path) -> None:
    from phone_gym.virtual import VirtualAdbServer, VirtualPhone
    from phone_gym.world.render import Renderer

    phone = VirtualPhone("emulator-5554")
    with VirtualAdbServer([phone]) as adb:
        app = create_server_app("RealPhone-v0", serial="emulator-5554", port=adb.port,
                                settle=0.0, timeout=3.0)
        with Server(app) as srv, PhoneEnvClient(srv.url) as client:
            obs, info = client.reset(task="SettingsWifiOff", seed=0)
            assert "wi-fi" in obs["instruction"].lower() and info["step"] == 0
            obs, reward, terminated, truncated, info = client.step('open_app(app="Settings")')
            assert info["action_error"] is None and (terminated, truncated) == (False, False)
            shot = obs["screenshot"]
            assert shot.shape == (1200, 540, 3)
            expected = Renderer(540, 1200).render(phone.device.frame()).astype(int)
            assert np.abs(shot.astype(int) - expected).mean() < 3
            _, _, _, _, info = client.step("fly(x=5)")
            assert info["action_error"]
            _, reward, terminated, _, info = client.step("finish()")
            assert terminated and info["task_id"] == "SettingsWifiOff"
            assert info["success"] is False and reward == 0.0 and "params" not in info
    assert not fake_adb.exists()  # no adb binary ran


# --- the command ------------------------------------------------------------------------
def test_serve_command_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                           world: Server) -> None:
    from phone_gym.cli import main

    assert main(["serve"]) == 2
    assert "pass --openenv" in capsys.readouterr().err
    assert main(["serve", "--openenv", "--task", "NoSuchTask"]) == 2
    assert "phone-gym tasks" in capsys.readouterr().err
    assert main(["serve", "--openenv", "--port", str(world.port)]) == 1  # the port is taken
    err = capsys.readouterr().err
    assert "cannot listen" in err and "--port" in err and len(err.strip().splitlines()) == 1
    assert main(["serve", "--openenv", "--allow-origin", "evil.example"]) == 2
    err = capsys.readouterr().err
    assert "scheme://host[:port]" in err and len(err.strip().splitlines()) == 1


# --- no web page can drive it -------------------------------------------------------------
EVIL = "http://evil.example"


def ws_status(url: str, origin: str | None = None, token: str | None = None) -> int:
    """The HTTP status of a WebSocket handshake to ``url`` (101: open; then a reset)."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    headers = {"Authorization": f"Bearer {token}"} if token else None
    try:
        with connect(url, origin=origin, additional_headers=headers, proxy=None,
                     max_size=2**26) as ws:
            ws.send('{"type": "reset", "data": {"task": "SettingsWifiOff", "seed": 0}}')
            assert '"observation"' in ws.recv(timeout=60)
            return 101
    except InvalidStatus as exc:
        return int(exc.response.status_code)


def test_cross_origin_websocket_and_text_plain_post_are_refused(world: Server) -> None:
    import httpx

    ws = f"ws://127.0.0.1:{world.port}/ws"
    assert ws_status(ws, EVIL, world.token) == 403  # a page elsewhere, even with the token
    assert ws_status(ws, "null", world.token) == 403
    for origin in (f"http://127.0.0.1:{world.port}", f"http://localhost:{world.port}",
                   f"http://[::1]:{world.port}", None):
        assert ws_status(ws, origin, world.token) == 101, origin
    body = '{"seed": 0, "task": "SettingsWifiOff"}'  # what a form or fetch sends, no preflight
    r = httpx.post(f"{world.base}/reset?token={world.token}", content=body,
                   headers={"Origin": EVIL, "Content-Type": "text/plain"}, timeout=30)
    assert r.status_code == 403 and "cross-origin" in r.json()["detail"]
    r = httpx.post(f"{world.base}/reset", content=body, timeout=30,
                   headers={"Content-Type": "text/plain", **world.auth})
    assert r.status_code == 415 and "application/json" in r.json()["detail"]
    r = httpx.get(f"{world.base}/health", timeout=30,  # a DNS-rebinding page's own name
                  headers={"Host": f"evil.example:{world.port}", **world.auth})
    assert r.status_code == 403 and "DNS rebinding" in r.json()["detail"]


def test_requests_without_the_token_are_refused(world: Server) -> None:
    import httpx

    for path in ("/health", "/schema", "/state", "/metadata", "/docs"):
        r = httpx.get(world.base + path, timeout=30)
        assert r.status_code == 401 and "token" in r.json()["detail"], path
    assert httpx.get(f"{world.base}/health?token=x{world.token}").status_code == 401
    assert httpx.post(f"{world.base}/reset", json={}, timeout=30).status_code == 401
    ws = f"ws://127.0.0.1:{world.port}/ws"
    assert ws_status(ws) == 401 and ws_status(ws, token="nope") == 401
    assert ws_status(f"{ws}?token={world.token}") == 101
    with pytest.raises(ConnectionError, match="HTTP 401.*missing or wrong token"):
        PhoneEnvClient(world.base).reset()
    # the token as the client takes it: in the URL, as an argument (both: the same one)
    with PhoneEnvClient(world.base, token=world.token) as client:
        assert client.reset(task="SettingsWifiOff", seed=0)[1]["step"] == 0
    assert PhoneEnvClient(world.url).base_url == world.base
    with pytest.raises(ValueError, match="differs"):
        PhoneEnvClient(world.url, token="other")
    # a page's first load (token in the URL) gets it as a cookie, SameSite=Strict
    r = httpx.get(f"{world.base}/docs?token={world.token}", timeout=30)
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"phone_gym_token_{world.port}={world.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    r = httpx.get(f"{world.base}/openapi.json", timeout=30,
                  headers={"Cookie": f"phone_gym_token_{world.port}={world.token}"})
    assert r.status_code == 200


def test_no_token_and_allow_origin() -> None:
    import httpx

    app = create_server_app("PhoneWorld-v0", require_token=False,
                            allow_origins=["http://myhost.test:9999"])
    assert app.state.token is None
    with Server(app) as srv:
        assert httpx.get(f"{srv.base}/health").status_code == 200
        assert httpx.get(f"{srv.base}/health", headers={"Origin": EVIL}).status_code == 403
        headers = {"Origin": "http://myhost.test:9999", "Host": "myhost.test:9999"}
        assert httpx.get(f"{srv.base}/health", headers=headers).status_code == 200
        assert ws_status(f"ws://127.0.0.1:{srv.port}/ws", EVIL) == 403
        with PhoneEnvClient(srv.base) as client:
            assert client.reset(task="SettingsWifiOff", seed=0)[1]["step"] == 0
    with pytest.raises(ValueError, match="scheme://host"):
        create_server_app("PhoneWorld-v0", allow_origins=["myhost.test:9999"])
    with pytest.raises(ValueError, match="one or the other"):
        create_server_app("PhoneWorld-v0", token="t", require_token=False)
    with pytest.raises(ValueError, match="idle_timeout_s"):
        create_server_app("PhoneWorld-v0", idle_timeout_s=0)


# --- sessions: idle ones close, HTTP calls inside the limit ----------------------------------
def test_an_idle_session_is_closed_and_frees_its_slot() -> None:
    app = create_server_app("PhoneWorld-v0", max_sessions=1, idle_timeout_s=1.0)
    with Server(app) as srv:
        busy = PhoneEnvClient(srv.url)
        busy.reset(task="SettingsWifiOff", seed=0)
        for _ in range(4):  # a client that acts within the timeout keeps its session
            time.sleep(0.3)
            assert busy.step('press(button="home")')[4]["action_error"] is None
        time.sleep(2.0)
        with pytest.raises(RuntimeError, match="closed the session.*idle for 1 s"):
            busy.step('press(button="home")')
        busy.close()
        with PhoneEnvClient(srv.url) as client:  # its slot is free (max_sessions=1)
            assert client.reset(task="SettingsWifiOff", seed=1)[1]["step"] == 0


def test_http_calls_obey_the_session_limit_and_step_says_what_to_do(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx

    from phone_gym.integrations import openenv

    built: list[str] = []
    real_init = openenv.PhoneEnvironment.__init__

    def counting_init(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append("env")
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(openenv.PhoneEnvironment, "__init__", counting_init)
    app = create_server_app("PhoneWorld-v0", max_sessions=1)
    with Server(app) as srv:
        reset = {"seed": 0, "task": "SettingsWifiOff"}
        r = httpx.post(f"{srv.base}/step", json={"action": {"text": "finish()"}},
                       headers=srv.auth, timeout=30)
        assert r.status_code == 409
        assert "WebSocket session" in r.json()["detail"] and "PhoneEnvClient" in r.json()["detail"]
        for path in ("/state", "/metadata", "/schema", "/health"):
            assert httpx.get(srv.base + path, headers=srv.auth, timeout=30).status_code == 200
        assert built == []  # none of those made an env
        with PhoneEnvClient(srv.url) as client:
            client.reset(task="SettingsWifiOff", seed=0)
            r = httpx.post(f"{srv.base}/reset", json=reset, headers=srv.auth, timeout=60)
            assert r.status_code == 503 and "capacity" in r.json()["detail"]
            assert built == ["env"]  # the WebSocket session's only
        time.sleep(0.2)  # the session's slot frees once its socket closes
        r = httpx.post(f"{srv.base}/reset", json=reset, headers=srv.auth, timeout=60)
        assert r.status_code == 200 and r.json()["observation"]["instruction"]
        r = httpx.post(f"{srv.base}/reset", json={"task": "NoSuchTask"}, headers=srv.auth,
                       timeout=60)
        assert r.status_code == 400 and "NoSuchTask" in r.json()["detail"]
        with PhoneEnvClient(srv.url) as client:  # the HTTP resets gave their slot back
            assert client.reset(task="SettingsWifiOff", seed=0)[1]["step"] == 0


def _until_closed(sock: socket.socket, limit_s: float = 10.0) -> tuple[bytes, float]:
    """What the server sent before it closed ``sock``, and how long that took."""
    start, data = time.monotonic(), b""
    sock.settimeout(limit_s)
    while chunk := sock.recv(4096):
        data += chunk
    return data, time.monotonic() - start


def test_half_sent_requests_are_closed() -> None:
    import httpx

    app = create_server_app("PhoneWorld-v0")
    with Server(app, request_timeout_s=0.5) as srv:
        token = srv.token.encode()
        with socket.create_connection(("127.0.0.1", srv.port)) as sock:  # headers stall
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthoriz")
            data, took = _until_closed(sock)
        assert data.startswith(b"HTTP/1.1 408") and took < 5
        with socket.create_connection(("127.0.0.1", srv.port)) as sock:  # the body stalls
            sock.sendall(b"POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         b"application/json\r\nAuthorization: Bearer " + token
                         + b"\r\nContent-Length: 60\r\n\r\n{\"seed\"")
            data, took = _until_closed(sock)
        assert b"200 OK" not in data and took < 5
        with socket.create_connection(("127.0.0.1", srv.port)) as sock:  # nothing at all
            data, took = _until_closed(sock)
        assert data == b"" and took < 5
        with httpx.Client(headers=srv.auth, timeout=30) as http:  # keep-alive still serves
            for _ in range(2):
                assert http.get(f"{srv.base}/health").status_code == 200
            time.sleep(0.8)  # idle between requests is the keep-alive's business, not ours
            assert http.get(f"{srv.base}/health").status_code == 200
        with PhoneEnvClient(srv.url) as client:  # an open WebSocket is no late request
            client.reset(task="SettingsWifiOff", seed=0)
            time.sleep(0.8)
            assert client.step('press(button="home")')[1] == 0.0


def test_serve_prints_its_url_with_the_token() -> None:
    import os
    import re
    import subprocess
    import sys

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "phone_gym", "serve", "--openenv", "--port",
                             str(port), "--task", "SettingsWifiOff"],
                            stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:(\d+)/\?token=([\w-]{40,}))$", line.strip())
        assert match and int(match[2]) == port, line
        deadline = time.monotonic() + 60
        while True:  # the server listens once uvicorn has started
            try:
                with PhoneEnvClient(match[1]) as client:
                    assert client.reset(seed=0)[0]["instruction"] == "Turn off Wi-Fi."
                break
            except ConnectionError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.2)
        with pytest.raises(ConnectionError, match="401"):
            PhoneEnvClient(f"http://127.0.0.1:{port}").reset()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_ui_elements_reach_json_as_the_generic_walk_makes_them() -> None:
    """``_jsonable`` turns a ``UIElementList`` into dicts straight from its rows: the same
    JSON as walking every dict (tuples as lists), for the UI of a few apps' screens."""
    import json

    from phone_gym.envs import PhoneWorldEnv
    from phone_gym.envs.infos import UIElementList
    from phone_gym.integrations import openenv as oe

    def walk(value: Any) -> Any:
        if isinstance(value, dict):
            return {str(k): walk(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [walk(v) for v in value]
        assert value is None or isinstance(value, (bool, int, str)), type(value)
        return value

    from phone_gym.mockapps import TEMPLATES

    env = PhoneWorldEnv(task=list(TEMPLATES)[:28])
    seen = 0
    for seed in range(3):
        env.reset(seed=seed)
        for _ in range(4):
            _, _, terminated, truncated, info = env.step(env.oracle_action())
            ui = info["ui_elements"]
            assert isinstance(ui, UIElementList) and len(ui) > 0
            fast = oe._jsonable(ui)
            assert fast == walk(list(ui))
            assert json.loads(json.dumps(fast)) == fast
            seen += 1
            if terminated or truncated:
                break
    assert seen >= 6


def test_deadline_times_out_an_await_and_only_that() -> None:
    """``openenv_asgi.deadline`` (and its Python 3.10 stand-in) raises ``TimeoutError`` for
    an await past it and leaves a quicker one, or no limit, alone."""
    import asyncio

    from phone_gym.integrations.openenv_asgi import _Deadline, deadline

    async def waits(make: Any, limit: float | None, seconds: float) -> str:
        async with make(limit):
            await asyncio.sleep(seconds)
        return "done"

    for make in (deadline, _Deadline):
        with pytest.raises(asyncio.TimeoutError):
            asyncio.run(waits(make, 0.01, 5))
        assert asyncio.run(waits(make, 5, 0.01)) == "done"
        assert asyncio.run(waits(make, None, 0.01)) == "done"


def test_idle_watch_times_out_one_long_wait_not_many_short_ones() -> None:
    """``openenv_asgi.IdleWatch``: waits shorter than its limit pass however long they add
    up to, and the time between waits (the server working) does not count; a wait past it
    raises ``TimeoutError`` and leaves the task able to await again (not cancelled)."""
    import asyncio

    from phone_gym.integrations.openenv_asgi import IdleWatch

    async def session() -> list[str]:
        watch = IdleWatch(0.1)
        seen = []
        for _ in range(6):  # 6 x 0.05 s of waits and 6 x 0.06 s of work: 0.66 s in all
            seen.append(await watch.wait(asyncio.sleep(0.05, "message")))
            time.sleep(0.06)  # work between waits, the loop blocked
        try:
            await watch.wait(asyncio.sleep(5, "late"))
        except asyncio.TimeoutError:
            seen.append("timeout")
        assert watch.fired
        await asyncio.sleep(0.01)  # the task was not left cancelled
        with pytest.raises(asyncio.TimeoutError):  # and a fired watch stays fired
            await watch.wait(asyncio.sleep(0, "after"))
        watch.stop()
        return seen

    assert asyncio.run(asyncio.wait_for(session(), 10)) == ["message"] * 6 + ["timeout"]


def test_the_renderer_composes_into_the_shared_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In a ``shm`` session the env's renderer composes into the shared frame in place
    (``Renderer.adopt``) after the first frame, copied there: the frame is the in-process
    screenshot at every step, and every screenshot after the first is there already."""
    from phone_gym.integrations.openenv import PhoneEnvAction, PhoneEnvironment

    expected = in_process("ContactsCreate", 3, None)
    there: list[bool] = []  # per frame shared: whether the screenshot was in the frame
    share = PhoneEnvironment._share

    def spying(self: PhoneEnvironment, shot: np.ndarray) -> None:
        assert self._shared is not None
        there.append(np.shares_memory(shot, self._shared.pixels))
        share(self, shot)

    monkeypatch.setattr(PhoneEnvironment, "_share", spying)
    env = PhoneEnvironment("PhoneWorld-v0")
    try:
        env.reset(seed=3, task="ContactsCreate", frame_format="shm")
        assert env._shared is not None
        shared = env._shared.pixels
        assert np.array_equal(shared, expected[0][1]["screenshot"])
        for action, e_obs, *_ in expected[1:]:
            observation = env.step(PhoneEnvAction(text=action))
            assert observation.frame is not None and observation.frame["format"] == "shm"
            assert np.array_equal(shared, e_obs["screenshot"]), action
        del shared  # the mapping closes with the env
    finally:
        env.close()
    assert there == [False] + [True] * (len(expected) - 1) and len(expected) > 5


@pytest.mark.parametrize("max_queue", [1, 32])
def test_messages_sent_ahead_are_all_answered_in_order(max_queue: int) -> None:
    """The server's WebSocket protocol (``openenv_asgi.websocket_protocol``, what
    ``server_config`` sets) reads on while fewer than ``ws_max_queue`` messages wait and
    stops reading beyond: a client that sends many messages before reading gets every
    answer, in order."""
    from phone_gym.integrations.openenv_asgi import websocket_protocol

    app = create_server_app("PhoneWorld-v0", max_sessions=1)
    server = Server(app)
    assert server.server.config.ws is websocket_protocol()
    server.server.config.ws_max_queue = max_queue
    with server as srv:
        ws = BlockingWebSocket(srv.base.replace("http", "ws") + "/ws", open_timeout=10,
                               max_size=None, headers=srv.auth)
        try:
            ws.send('{"type": "reset", "data": {"task": "SettingsWifiOff", "seed": 0}}')
            for _ in range(12):
                ws.send('{"type": "step", "data": {"text": "wait()"}}')
            ws.send('{"type": "state"}')
            answers = [json.loads(ws.recv(timeout=30)) for _ in range(14)]
            ws.send('{"type": "close"}')
        finally:
            ws.close()
    steps = [a["data"]["observation"]["step"] for a in answers[:13]]
    assert steps == list(range(13)), answers[0]
    assert answers[13]["type"] == "state" and answers[13]["data"]["step_count"] == 12


def test_step_payloads_are_pydantics_dumps() -> None:
    """The client's step message for a text action (made without a pydantic dump's walk)
    is the one pydantic makes of the validated action, and so for every other form."""
    from phone_gym.actions import parse_action
    from phone_gym.integrations.openenv import PhoneEnvAction, _PhoneEnvWire

    wire = _PhoneEnvWire("http://127.0.0.1:9", None)
    for action in ["click(x=500, y=300)", "", {"action": "wait"}, parse_action("wait(seconds=1)"),
                   PhoneEnvAction(action="click", x=1, y=2),
                   PhoneEnvAction(text="wait()", metadata={"k": 1})]:
        built = PhoneEnvAction.from_any(action)
        checked = PhoneEnvAction.model_validate(built.model_dump())
        assert built == checked
        assert wire._step_payload(built) == checked.model_dump(exclude_none=True,
                                                               exclude={"metadata"})
    assert wire._step_payload(PhoneEnvAction.from_any("wait()")) == {"text": "wait()"}
