"""The play session, its HTTP API and the ``phone-gym play`` command without a browser:
episode plans, bad requests, recorded frames only, a phone over adb (the virtual device),
and the command's one-line errors. The server's guard and its sessions per tab are in
test_play_server.py."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from play_support import SIZE, TASK

from phone_gym.cli import main
from phone_gym.play import EpisodePlan, list_recorded, recorded_steps
from phone_gym.play.cli import make_session, make_sessions
from phone_gym.play.session import page_action
from phone_gym.trajectory.store import load_episodes


def test_episode_plans_take_tasks_and_seeds_in_turn() -> None:
    assert [EpisodePlan((), 5).episode(k) for k in range(2)] == [(None, 5), (None, 6)]
    plan = EpisodePlan(("A", "B"), 3)
    assert [plan.episode(k) for k in range(4)] == [("A", 3), ("B", 3), ("A", 4), ("B", 4)]
    fixed = EpisodePlan(("A",), 0, (("A", 7), ("B", 9)))
    assert [fixed.episode(k) for k in range(3)] == [("A", 7), ("B", 9), ("A", 7)]


def test_a_suite_plays_its_tasks_or_its_fixed_instances(tmp_path: Path) -> None:
    from phone_gym.bench.suites import register_suite

    session = make_session(suite=f"{TASK},ClockDisableAlarm", seed=3, out=tmp_path, size=SIZE)
    started = [session.new_episode() for _ in range(3)]
    assert [(s["task_id"], s["seed"]) for s in started] == [
        (TASK, 3), ("ClockDisableAlarm", 3), (TASK, 4)]
    session.close()
    register_suite("play-test-instances", lambda: ["ClockDisableAlarm", TASK],
                   instances_fn=lambda: (("ClockDisableAlarm", 7), (TASK, 2)))
    session = make_session(suite="play-test-instances", out=tmp_path, size=SIZE)
    started = [session.new_episode() for _ in range(2)]
    assert [(s["task_id"], s["seed"]) for s in started] == [("ClockDisableAlarm", 7), (TASK, 2)]
    session.close()


@pytest.mark.parametrize(("data", "message"), [
    ({"action": "tap", "x": 1, "y": 2}, "accepted: click, double_click"),
    ({"action": "open_app", "app": "Clock"}, "accepted: click"),
    ({"action": "click", "x": 10}, "missing: y"),
    ({"action": "drag", "x": 1, "y": 2, "x2": 3, "y2": 4000}, "coordinates are in [0, 1000]"),
    ({"action": "press", "button": "power"}, "back, home, enter, recents"),
    ({"action": "scroll", "x": 1, "y": 2, "direction": "sideways"}, "up, down, left, right"),
])
def test_bad_page_actions_say_what_is_accepted(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match="accepted|missing|coordinates|one of") as info:
        page_action(data)
    assert message in str(info.value)


def test_bad_sessions_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not both"):
        make_session(task=TASK, suite="phoneworld", out=tmp_path)
    with pytest.raises(ValueError, match="unknown task 'NoSuchTask'.*phone-gym tasks"):
        make_session(task="NoSuchTask", out=tmp_path)
    with pytest.raises(ValueError, match="unknown suite or task"):
        make_session(suite="nosuchsuite", out=tmp_path)
    session = make_session(task=TASK, out=tmp_path, size=SIZE)
    with pytest.raises(ValueError, match="no episode is running"):
        session.act({"action": "press", "button": "home"})


def _get(url: str, headers: dict[str, str]) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                    timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _post(url: str, data: Any, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, json.dumps(data).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_api_serves_the_page_frames_and_recorded_frames_only(tmp_path: Path) -> None:
    pytest.importorskip("aiohttp", reason="the play extra (aiohttp) is not installed")
    from phone_gym.play.server import ServerThread

    sessions = make_sessions(task=TASK, out=tmp_path / "play", size=SIZE)
    (tmp_path / "secret.png").write_bytes(b"not yours")
    with ServerThread(sessions) as server:
        url, auth = server.url, {"Authorization": f"Bearer {server.token}"}

        def get(path: str) -> tuple[int, bytes]:
            return _get(url + path, {**auth, "X-Play-Session": tab})

        def post(path: str, data: Any) -> tuple[int, dict[str, Any]]:
            return _post(url + path, data, {**auth, "X-Play-Session": tab})

        status, page = _get(f"{url}/", auth)
        assert status == 200 and b"/static/play.js" in page and b"http" not in page
        status, opened = _post(f"{url}/api/session", {}, auth)
        tab, state = opened["session"], opened["state"]
        assert status == 200 and state["step"] == 0 and (state["width"], state["height"]) == SIZE
        assert json.loads(get("/api/state")[1]) == state
        status, png = get("/api/frame.png")
        assert status == 200 and png.startswith(b"\x89PNG")
        assert post("/api/action", ["click"])[0] == 400
        status, error = post("/api/action", {"action": "wait", "seconds": 1})
        assert status == 400 and "accepted: click" in error["error"]
        status, state = post("/api/action", {"action": "click", "x": 2000, "y": 1})
        assert status == 400 and "[0, 1000]" in state["error"]
        post("/api/action", {"action": "press", "button": "home"})
        status, state = post("/api/action", {"action": "finish", "status": "success"})
        assert status == 200 and state["done"] and state["verdict"]["success"] is False
        assert post("/api/action", {"action": "finish", "status": "success"})[0] == 400
        episode_id = state["episode_id"]
        status, body = get("/api/episodes")
        listed = json.loads(body)["episodes"]
        assert [e["episode_id"] for e in listed] == [episode_id] and listed[0]["steps"] == 2
        assert get(f"/frames/{episode_id}/000.png")[0] == 200
        assert get(f"/frames/{episode_id}/final.png")[0] == 200
        for bad in (f"/frames/{episode_id}/..%2F..%2F..%2Fsecret.png", "/frames/../secret.png",
                    f"/frames/{episode_id}/steps.jsonl", "/frames/x/002.png",
                    "/api/episodes/nope"):
            assert get(bad)[0] == 404, bad
        status, body = get(f"/api/episodes/{episode_id}")
        steps = json.loads(body)["steps"]
        assert [s["parsed"] for s in steps] == [{"action": "press", "button": "home"},
                                                {"action": "finish", "status": "success"}]
        status, state = post("/api/new", {})
        assert state["step"] == 0 and state["seed"] == 1 and state["episode_id"] != episode_id
        assert get("/replay")[0] == 200
        # the tab's session goes with every call: none, or an unknown one, says what to do
        status, body = _get(f"{url}/api/state", auth)
        assert status == 400 and json.loads(body)["code"] == "no_session"
        status, body = _get(f"{url}/api/frame.png?session=nope", auth)
        assert status == 410 and "reload the page" in json.loads(body)["error"]
        assert get("/api/frame.png")[0] == 200
    sessions.close()


def test_play_real_over_the_virtual_device(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("adbutils", reason="the real extra is not installed")
    from phone_gym.virtual import VirtualAdbServer, VirtualPhone

    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")  # adbutils must not start an adb
    with VirtualAdbServer([VirtualPhone()]) as server:
        session = make_session(real=True, port=server.port, settle=0.0, out=tmp_path,
                               size=(180, 400))
        state = session.new_episode()
        assert state["task_id"] == "SettingsWifiOff" and (state["width"], state["height"]) == (
            180, 400)
        session.act({"action": "press", "button": "home"})
        state = session.act({"action": "finish", "status": "success"})
        assert state["done"] and state["verdict"]["success"] is False
        session.close()
    (episode,) = load_episodes(tmp_path)
    assert episode.steps[0].source == "play-real" and len(episode) == 2
    assert list_recorded(tmp_path)[0]["task_id"] == "SettingsWifiOff"
    assert recorded_steps(tmp_path, episode.episode_id)["final"] is not None


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("phone-gym: "), err
    return lines[0]


def test_play_command_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["play", "--task", "NoSuchTask", "--out", str(tmp_path)]) == 2
    assert "phone-gym tasks lists them" in _one_line(capsys.readouterr().err)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["play", "--task", TASK, "--size", "90", "200", "--out", str(tmp_path),
                     "--port", str(port)]) == 1
        assert "pass another --port" in _one_line(capsys.readouterr().err)
        assert main(["play", "--task", TASK, "--size", "90", "200", "--out", str(tmp_path),
                     "--listen-port", str(port)]) == 1  # the old name of --port
    assert "pass another --port" in _one_line(capsys.readouterr().err)
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    assert main(["play", "--real", "--adb-port", str(closed), "--out", str(tmp_path)]) == 1
    assert "no adb server at" in _one_line(capsys.readouterr().err)
    assert main(["play", "--task", TASK, "--out", str(tmp_path), "--allow-origin",
                 "http://myhost:1/page"]) == 2
    assert "scheme://host[:port] with no path" in _one_line(capsys.readouterr().err)
    assert main(["play", "--task", TASK, "--out", str(tmp_path), "--idle-timeout", "0"]) == 2
    assert "seconds > 0" in capsys.readouterr().err
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "aiohttp" else real_find_spec(name, *a))
    assert main(["play", "--task", TASK, "--out", str(tmp_path)]) == 1
    assert 'pip install "phone-gym[play]"' in _one_line(capsys.readouterr().err)


class _GoneEnv:
    """An env whose phone stops answering after the reset."""

    def reset(self, seed: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        import numpy as np

        return {"instruction": "x", "screenshot": np.zeros((20, 10, 3), np.uint8)}, {}

    def step(self, action: Any) -> Any:
        raise RuntimeError("the phone went away")

    def close(self) -> None: ...


def test_an_env_failure_is_shown_not_a_server_error_page(tmp_path: Path) -> None:
    pytest.importorskip("aiohttp", reason="the play extra (aiohttp) is not installed")
    from phone_gym.play.server import ServerThread
    from phone_gym.play.sessions import PlaySessions

    sessions = PlaySessions(lambda task: _GoneEnv(), tmp_path)
    with ServerThread(sessions, require_token=False) as server:
        status, opened = _post(f"{server.url}/api/session", {}, {})
        assert status == 200 and opened["state"]["width"] == 10
        status, body = _post(f"{server.url}/api/action", {"action": "press", "button": "back"},
                             {"X-Play-Session": opened["session"]})
    assert status == 500 and body["error"].startswith("RuntimeError: the phone went away")
    sessions.close()
